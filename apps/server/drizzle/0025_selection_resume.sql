-- Reserved for resuming a selection run after a restart (issue 27).
SELECT 1;
