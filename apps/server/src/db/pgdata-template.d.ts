// Types of pgdata-template.js (plain JavaScript: the build script and the database worker load it as is).
export function migrationsFingerprint(folder: string): string;
export function usableTemplate(templateDir: string, migrationsFolder: string): string | undefined;
