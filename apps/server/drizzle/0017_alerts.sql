-- Reserved for issue 29: alerts; replaced by that work's schema.
SELECT 1;
