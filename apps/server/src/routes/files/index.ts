import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  FILE_FIELD,
  FIRMWARE_FIELD,
  FileListSchema,
  FileRecordSchema,
  FileTargetQuerySchema,
  FirmwareDeleteAllQuerySchema,
  FirmwareListQuerySchema,
  FirmwareListSchema,
  FirmwareRecordSchema,
} from '@fleet/shared/schemas/files';
import { ErrorInfoSchema } from '@fleet/shared/schemas/error';
import { StatusSchema, statusWith } from '@fleet/shared/schemas/list';
import type { Deps } from '../../domain/deps.ts';
import { deleteAllUploads, deleteUpload } from '../../domain/files/delete-uploads.ts';
import { STREAM_LIMIT, assertMayChangeFiles } from '../../domain/files/file-policy.ts';
import { listFiles, listFirmware } from '../../domain/files/list-uploads.ts';
import { storeFile } from '../../domain/files/store-file.ts';
import { storeFirmware } from '../../domain/files/store-firmware.ts';
import { readUploadForm, type FormPart } from '../../domain/files/upload-form.ts';
import { auditContext } from '../audit-context.ts';
import { ERROR_RESPONSES, pathName, scopeOf } from '../scope.ts';

const errors = { ...ERROR_RESPONSES, 413: ErrorInfoSchema, 503: ErrorInfoSchema };
const Entity = z.object({ entity: pathName() });
const ById = Entity.extend({ id: z.string().min(1).max(64) });
const Deleted = StatusSchema.extend({ deleted: z.number().int() });

/**
 * Files and firmware of the entity, its sites and its groups (fleet §7). Uploads are multipart
 * (no body schema: the parts are read as a stream, docs/decisions.md); the level and its target
 * field travel as form fields on upload and as query parameters elsewhere.
 */
export async function fileRoutes(api: FastifyInstance, deps: Deps) {
  await api.register(async (app) => {
    await app.register(multipart, {
      // Keep the client's file name as sent, so a name with a path in it is refused, not trimmed.
      preservePath: true,
      limits: { fileSize: STREAM_LIMIT, files: 1, fields: 20, fieldSize: 4096, parts: 24, headerPairs: 50 },
    });
    const r = app.withTypeProvider<ZodTypeProvider>();
    const security = [{ bearer: [] }];
    const onError = (err: unknown) => app.log.error({ err }, 'removing a blob failed; the sweep retries');

    /** The caller's entity, checked to allow changes, before any byte of the body is read. */
    const changing = (request: FastifyRequest) => {
      const entity = scopeOf(request, 'Entity')!;
      assertMayChangeFiles(request.auth);
      return entity;
    };
    const form = (request: FastifyRequest, fileField: string) =>
      readUploadForm(request.parts() as AsyncIterable<FormPart>, {
        blobs: deps.blobs,
        fileField,
        maxBytes: STREAM_LIMIT,
        complete: () => request.raw.complete,
      });

    for (const kind of ['file', 'firmware'] as const) {
      const isFile = kind === 'file';
      const base = isFile ? '/tenant/:entity/files' : '/tenant/:entity/firmware';
      const tags = [isFile ? 'files' : 'firmware'];

      r.post(
        base,
        {
          schema: {
            tags,
            security,
            summary: isFile
              ? 'Upload a file (multipart: file, level, entity_id | site_id | group_id, optional file_device_path)'
              : 'Upload firmware (multipart: firmware_file, version, device_type, description, level, entity_id | site_id | group_id)',
            params: Entity,
            consumes: ['multipart/form-data'],
            response: { 201: statusWith(isFile ? FileRecordSchema : FirmwareRecordSchema), ...errors },
          },
        },
        async (request, reply) => {
          const entity = changing(request);
          if (!request.isMultipart()) {
            return reply.code(400).send({
              errorInfo: { code: 400, userMessage: 'Invalid upload', developerMessage: 'Send multipart/form-data' },
            });
          }
          const upload = await form(request, isFile ? FILE_FIELD : FIRMWARE_FIELD);
          const data = isFile
            ? await storeFile(deps.db, auditContext(request, deps), deps.blobs, entity, upload)
            : await storeFirmware(deps.db, auditContext(request, deps), deps.blobs, entity, upload);
          return reply.code(201).send({ status: isFile ? 'File uploaded' : 'Firmware uploaded', data });
        },
      );

      r.get(
        base,
        {
          schema: {
            tags,
            security,
            summary: isFile ? 'The files of one target' : 'The firmware of one target, optionally of one device type',
            params: Entity,
            querystring: isFile ? FileTargetQuerySchema : FirmwareListQuerySchema,
            response: { 200: isFile ? FileListSchema : FirmwareListSchema, ...errors },
          },
        },
        async (request) => {
          const entity = scopeOf(request, 'Entity')!;
          return isFile ? listFiles(deps.db, entity, request.query) : listFirmware(deps.db, entity, request.query);
        },
      );

      r.delete(
        `${base}/all`,
        {
          schema: {
            tags,
            security,
            summary: isFile ? 'Delete every file of one target' : 'Delete every firmware of one target and device type',
            params: Entity,
            querystring: isFile ? FileTargetQuerySchema : FirmwareDeleteAllQuerySchema,
            response: { 200: Deleted, ...errors },
          },
        },
        async (request) => {
          const entity = changing(request);
          const deleted = await deleteAllUploads(
            deps.db,
            auditContext(request, deps),
            deps.blobs,
            kind,
            entity,
            request.query,
            onError,
          );
          return { status: `${deleted} deleted`, deleted };
        },
      );

      r.delete(
        `${base}/:id`,
        {
          schema: {
            tags,
            security,
            summary: isFile ? 'Delete one file and its bytes' : 'Delete one firmware and its bytes',
            params: ById,
            response: { 200: StatusSchema, ...errors },
          },
        },
        async (request) => {
          await deleteUpload(
            deps.db,
            auditContext(request, deps),
            deps.blobs,
            kind,
            changing(request),
            request.params.id,
            onError,
          );
          return { status: isFile ? 'File deleted' : 'Firmware deleted' };
        },
      );
    }
  });
}
