-- The BM25 statistics (20261126130000_bm25_search) for less of each chunk write (issue 28). Measured by replaying a
-- drain's chunk INSERTs (1,606 SciFact abstracts, 12 statements) into fresh datastores on the embedded database,
-- alternated, vacuumed between: 1.60 ms a chunk as it was, 1.33 without the foreign key, 1.13 with MERGE too, against
-- 0.79 with no "DatastoreTerm" at all.
--
-- * "DatastoreTerm" no longer has a foreign key to "Datastore": each new lexeme of a datastore (19,099 for those
--   abstracts) was checked by a lookup and a row lock of its datastore. Its rows go with their datastore by the
--   statement trigger below instead of the cascade. "DatastoreTextStats" (a row a datastore) keeps its key.
-- * A statement's lexeme counts go in with one MERGE (a join, then plain inserts and updates) rather than INSERT …
--   ON CONFLICT (a speculative insertion a lexeme). MERGE does not retry a key that a concurrent transaction inserted;
--   here none can: the datastore's "DatastoreTextStats" row is written first, in the same transaction, and its lock
--   (or, for a new datastore, the wait on its key) holds any other writer of the datastore's statistics until this
--   transaction ends. The MERGE, a statement of its own, then reads what the one before committed.
-- * A statement that changed no chunk returns at once: the worker's write deletes a batch's previous chunks before it
--   inserts the new ones, and for new documents that DELETE removes nothing, yet the four statements below still
--   planned and ran over the empty transition table, 15–50 ms of the embedded database a batch.
ALTER TABLE "DatastoreTerm" DROP CONSTRAINT "DatastoreTerm_datastoreId_fkey";

CREATE FUNCTION datastore_terms_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "DatastoreTerm" t USING gone g WHERE t."datastoreId" = g.id;
  RETURN NULL;
END $$;
CREATE TRIGGER "Datastore_terms_deleted" AFTER DELETE ON "Datastore" REFERENCING OLD TABLE AS gone
  FOR EACH STATEMENT EXECUTE FUNCTION datastore_terms_deleted();

CREATE OR REPLACE FUNCTION chunk_statistics() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    IF EXISTS (SELECT 1 FROM removed) THEN
      WITH r AS (SELECT "datastoreId", count(*) AS chunks, sum("tsvLength") AS length FROM removed GROUP BY 1), gone AS (
        DELETE FROM "DatastoreTextStats" s USING r WHERE s."datastoreId" = r."datastoreId" AND s.chunks <= r.chunks
      )
      UPDATE "DatastoreTextStats" s SET chunks = s.chunks - r.chunks, length = s.length - r.length
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
        ON CONFLICT ("datastoreId") DO UPDATE SET chunks = s.chunks + EXCLUDED.chunks, length = s.length + EXCLUDED.length;
      MERGE INTO "DatastoreTerm" t
      USING (SELECT c."datastoreId", l.lexeme, count(*)::integer AS n FROM added c, unnest(tsvector_to_array(c.tsv)) AS l(lexeme) GROUP BY 1, 2) a
         ON t."datastoreId" = a."datastoreId" AND t.lexeme = a.lexeme
      WHEN MATCHED THEN UPDATE SET df = t.df + a.n
      WHEN NOT MATCHED THEN INSERT ("datastoreId", lexeme, df) VALUES (a."datastoreId", a.lexeme, a.n);
    END IF;
  END IF;
  RETURN NULL;
END $$;
