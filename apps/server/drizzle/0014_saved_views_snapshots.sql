-- Reserved for issue 27: saved views, daily fleet snapshots, bulk jobs; replaced by that work's schema.
SELECT 1;
