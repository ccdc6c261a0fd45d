-- The BM25 statistics' trigger (20261126130000_bm25_search) returns at once for a statement that changed no chunk.
-- The sync worker's write deletes a batch's previous chunks before inserting the new ones, and for new documents that
-- DELETE removes nothing, yet the trigger still planned and ran its four statements over the empty transition table:
-- 15–50 ms of the embedded database's thread a batch (issue 28), for nothing. Otherwise the same function.
CREATE OR REPLACE FUNCTION chunk_statistics() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    IF EXISTS (SELECT 1 FROM removed) THEN
      WITH r AS (SELECT "datastoreId", count(*) AS chunks, sum("tsvLength") AS length FROM removed GROUP BY 1), gone AS (
        DELETE FROM "DatastoreTextStats" s USING r WHERE s."datastoreId" = r."datastoreId" AND s.chunks <= r.chunks
      )
      UPDATE "DatastoreTextStats" s SET chunks = s.chunks - r.chunks, length = s.length - r.length
        FROM r WHERE s."datastoreId" = r."datastoreId" AND s.chunks > r.chunks;
      -- two disjoint sets of rows in one statement: the lexemes that reach 0 are deleted, the others decremented
      WITH r AS (
        SELECT c."datastoreId", l.lexeme, count(*)::integer AS n FROM removed c, unnest(tsvector_to_array(c.tsv)) AS l(lexeme)
         WHERE EXISTS (SELECT 1 FROM "Datastore" d WHERE d.id = c."datastoreId") GROUP BY 1, 2
      ), gone AS (
        DELETE FROM "DatastoreTerm" t USING r WHERE t."datastoreId" = r."datastoreId" AND t.lexeme = r.lexeme AND t.df <= r.n
      )
      UPDATE "DatastoreTerm" t SET df = t.df - r.n FROM r WHERE t."datastoreId" = r."datastoreId" AND t.lexeme = r.lexeme AND t.df > r.n;
    END IF;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    IF EXISTS (SELECT 1 FROM added) THEN
      INSERT INTO "DatastoreTextStats" AS s ("datastoreId", chunks, length)
        SELECT "datastoreId", count(*), sum("tsvLength") FROM added GROUP BY 1
        ON CONFLICT ("datastoreId") DO UPDATE SET chunks = s.chunks + EXCLUDED.chunks, length = s.length + EXCLUDED.length;
      INSERT INTO "DatastoreTerm" AS t ("datastoreId", lexeme, df)
        SELECT c."datastoreId", l.lexeme, count(*) FROM added c, unnest(tsvector_to_array(c.tsv)) AS l(lexeme) GROUP BY 1, 2
        ON CONFLICT ("datastoreId", lexeme) DO UPDATE SET df = t.df + EXCLUDED.df;
    END IF;
  END IF;
  RETURN NULL;
END $$;
