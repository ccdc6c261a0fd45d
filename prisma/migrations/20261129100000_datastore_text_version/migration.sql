-- A version of each datastore's chunks (issue 28): lib/search/bm25-memory.ts keeps a datastore's BM25 postings in
-- memory and ranks by them only while the version it read them at is the datastore's. Every statement that inserts,
-- updates or deletes chunks goes through chunk_statistics() (statement triggers on "Chunk"), which now gives the
-- datastore's statistics row a new version from a sequence: never one seen before, even for a row deleted (its last
-- chunk gone) and created again. A new row takes the next value by default (the INSERT below), an updated one the
-- value its INSERT … ON CONFLICT drew. A statement that changes chunks with the user triggers disabled (as
-- 20261127020000_chunk_keys_in_row did, changing nothing the ranking reads) must set new versions itself.
CREATE SEQUENCE "DatastoreTextStats_version_seq";
ALTER TABLE "DatastoreTextStats" ADD COLUMN "version" BIGINT NOT NULL DEFAULT nextval('"DatastoreTextStats_version_seq"');
ALTER SEQUENCE "DatastoreTextStats_version_seq" OWNED BY "DatastoreTextStats"."version";

CREATE OR REPLACE FUNCTION chunk_statistics() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    IF EXISTS (SELECT 1 FROM removed) THEN
      WITH r AS (SELECT "datastoreId", count(*) AS chunks, sum("tsvLength") AS length FROM removed GROUP BY 1), gone AS (
        DELETE FROM "DatastoreTextStats" s USING r WHERE s."datastoreId" = r."datastoreId" AND s.chunks <= r.chunks
      )
      UPDATE "DatastoreTextStats" s SET chunks = s.chunks - r.chunks, length = s.length - r.length, version = nextval('"DatastoreTextStats_version_seq"')
        FROM r WHERE s."datastoreId" = r."datastoreId" AND s.chunks > r.chunks;
      -- the lexemes that reach 0 are deleted, the others decremented; chunks of a datastore being deleted are skipped
      MERGE INTO "DatastoreTerm" t
      USING (SELECT c."datastoreId", l.lexeme, count(*)::integer AS n FROM removed c, unnest(tsvector_to_array(c.tsv)) AS l(lexeme)
              WHERE EXISTS (SELECT 1 FROM "Datastore" d WHERE d.id = c."datastoreId") GROUP BY 1, 2) r
         ON t."datastoreId" = r."datastoreId" AND t.lexeme = r.lexeme
      WHEN MATCHED AND t.df <= r.n THEN DELETE
      WHEN MATCHED THEN UPDATE SET df = t.df - r.n;
    END IF;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    IF EXISTS (SELECT 1 FROM added) THEN
      INSERT INTO "DatastoreTextStats" AS s ("datastoreId", chunks, length)
        SELECT "datastoreId", count(*), sum("tsvLength") FROM added GROUP BY 1
        ON CONFLICT ("datastoreId") DO UPDATE SET chunks = s.chunks + EXCLUDED.chunks, length = s.length + EXCLUDED.length, version = EXCLUDED.version;
      MERGE INTO "DatastoreTerm" t
      USING (SELECT c."datastoreId", l.lexeme, count(*)::integer AS n FROM added c, unnest(tsvector_to_array(c.tsv)) AS l(lexeme) GROUP BY 1, 2) a
         ON t."datastoreId" = a."datastoreId" AND t.lexeme = a.lexeme
      WHEN MATCHED THEN UPDATE SET df = t.df + a.n
      WHEN NOT MATCHED THEN INSERT ("datastoreId", lexeme, df) VALUES (a."datastoreId", a.lexeme, a.n);
    END IF;
  END IF;
  RETURN NULL;
END $$;
