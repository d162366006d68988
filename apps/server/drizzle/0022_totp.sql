-- Reserved for two-factor sign-in (issue 31), which did not land with it: this migration does
-- nothing. TOTP's tables come in a later migration of their own; this file is never to be edited,
-- since databases have recorded it as applied.
SELECT 1;
