-- Reserved for issue 28: rollouts; replaced by that work's schema.
SELECT 1;
