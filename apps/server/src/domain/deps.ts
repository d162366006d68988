import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import type { AccessTokens } from '../lib/tokens.ts';

/** What domain operations need from the running app. */
export interface Deps {
  db: Db;
  tokens: AccessTokens;
  config: Config;
}
