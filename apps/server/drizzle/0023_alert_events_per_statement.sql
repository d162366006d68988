-- Alert events per statement (issue 29): placeholder, replaced in the next commit.
SELECT 1;
