import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ErrorInfoSchema } from '@fleet/shared/schemas/error';
import { LoginResponseSchema } from '@fleet/shared/schemas/session';
import {
  LoginWithRecoveryCodesSchema,
  RecoveryCodesSchema,
  TwoFactorChallengeRequestSchema,
  TwoFactorCodeRequestSchema,
  TwoFactorConfirmRequestSchema,
  TwoFactorEnrolmentSchema,
  TwoFactorRequirementSchema,
  TwoFactorStatusSchema,
} from '@fleet/shared/schemas/two-factor';
import { confirmDuringSignIn, enrolDuringSignIn, finishWithCode } from '../../domain/two-factor/challenge.ts';
import { MESSAGES } from '../../domain/two-factor/second-step.ts';
import { accountNamed, confirmEnrolment, startEnrolment, twoFactorStatus } from '../../domain/two-factor/enrol.ts';
import { getRequirement, resetTwoFactor, setRequirement } from '../../domain/two-factor/policy.ts';
import { twoFactorClock } from '../../domain/two-factor/totp.ts';
import type { Deps } from '../../domain/deps.ts';
import { HttpError, forbidden } from '../../lib/http-error.ts';
import { auditContext } from '../audit-context.ts';
import { ERROR_RESPONSES, SCOPES, pathName, scopeOf } from '../scope.ts';

const errors = ERROR_RESPONSES;

/** Two-factor sign-in (docs/two-factor.md): the sign-in's second step, one's own enrolment, admins' reset and requirement. */
export async function twoFactorRoutes(app: FastifyInstance, deps: Deps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['two-factor'];
  const security = [{ bearer: [] }];
  const stepErrors = { 400: ErrorInfoSchema, 401: ErrorInfoSchema, 409: ErrorInfoSchema, 429: ErrorInfoSchema };

  /** The signed-in person's account (a permanent token is a machine: it has no second factor). */
  async function self(request: FastifyRequest) {
    if (!request.auth.fam) throw forbidden('Sign in as a person to set up two-factor authentication');
    return accountNamed(deps.db, request.auth.sub);
  }

  r.post(
    '/login/two-factor',
    {
      config: { public: true },
      schema: {
        tags,
        summary: 'Finish a sign-in with an authenticator code or a recovery code',
        body: TwoFactorCodeRequestSchema,
        response: { 200: LoginResponseSchema, ...stepErrors },
      },
    },
    async (request) => finishWithCode(deps, request.body, auditContext(request, deps)),
  );

  r.post(
    '/login/two-factor/enrol',
    {
      config: { public: true },
      schema: {
        tags,
        summary: 'During a sign-in that requires it: start setting up an authenticator',
        body: TwoFactorChallengeRequestSchema,
        response: { 200: TwoFactorEnrolmentSchema, ...stepErrors },
      },
    },
    async (request) => enrolDuringSignIn(deps, request.body.challenge),
  );

  r.post(
    '/login/two-factor/confirm',
    {
      config: { public: true },
      schema: {
        tags,
        summary: 'During a sign-in that requires it: confirm the authenticator with a first code and sign in',
        body: TwoFactorCodeRequestSchema,
        response: { 200: LoginWithRecoveryCodesSchema, ...stepErrors },
      },
    },
    async (request) => confirmDuringSignIn(deps, request.body, auditContext(request, deps)),
  );

  r.get(
    '/two-factor',
    {
      schema: {
        tags,
        security,
        summary: 'Your own second factor',
        response: { 200: TwoFactorStatusSchema, ...errors },
      },
    },
    async (request) => twoFactorStatus(deps.db, await self(request)),
  );

  r.post(
    '/two-factor/enrol',
    {
      schema: {
        tags,
        security,
        summary: 'Start setting up an authenticator (the secret is shown this once)',
        response: { 200: TwoFactorEnrolmentSchema, ...errors },
      },
    },
    async (request) => startEnrolment(deps.db, await self(request)),
  );

  r.post(
    '/two-factor/confirm',
    {
      schema: {
        tags,
        security,
        summary: 'Confirm the authenticator with a first code; answers the ten recovery codes, once',
        body: TwoFactorConfirmRequestSchema,
        response: { 200: RecoveryCodesSchema, ...errors },
      },
    },
    async (request) => {
      const account = await self(request);
      const codes = await confirmEnrolment(
        deps,
        auditContext(request, deps),
        account,
        request.body.code,
        twoFactorClock.now(),
      );
      if (!codes) throw new HttpError(400, MESSAGES.wrongCode, 'Wrong code');
      return { recovery_codes: codes };
    },
  );

  for (const { prefix, params } of SCOPES) {
    const Scoped = z.object(params);
    const who = prefix ? "the entity's admins" : 'superadmins';

    r.get(
      `${prefix}/two-factor-requirement`,
      {
        schema: {
          tags,
          security,
          summary: `Whether ${who} must sign in with a second factor`,
          params: Scoped,
          response: { 200: TwoFactorRequirementSchema, ...errors },
        },
      },
      async (request) => getRequirement(deps.db, scopeOf(request, 'Entity')),
    );

    r.put(
      `${prefix}/two-factor-requirement`,
      {
        schema: {
          tags,
          security,
          summary: `Require (or not) a second factor of ${who}`,
          params: Scoped,
          body: TwoFactorRequirementSchema,
          response: { 200: TwoFactorRequirementSchema, ...errors },
        },
      },
      async (request) =>
        setRequirement(
          deps,
          auditContext(request, deps),
          request.auth,
          scopeOf(request, 'Entity'),
          request.body.required_for_admins,
        ),
    );

    r.delete(
      `${prefix}/account/:name/two-factor`,
      {
        schema: {
          tags,
          security,
          summary: "Reset another account's second factor (audited)",
          params: Scoped.extend({ name: pathName() }),
          response: { 204: z.null().describe('Reset'), ...errors },
        },
      },
      async (request, reply) => {
        const scope = scopeOf(request, 'Account');
        await resetTwoFactor(deps, auditContext(request, deps), request.auth, scope, request.params.name);
        return reply.code(204).send(null);
      },
    );
  }
}
