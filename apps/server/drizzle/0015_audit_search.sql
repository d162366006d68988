-- Reserved for issue 26: audit search; replaced by that work's schema.
SELECT 1;
