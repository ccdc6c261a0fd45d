-- Full-text ranking by BM25 (lib/search/fulltext.ts), with statistics kept exact by the database itself.
--
-- * A datastore has a language: the PostgreSQL text search configuration of its chunks ('english' by default).
-- * "Chunk".tsv is no longer a generated column: a BEFORE trigger computes it with search_document() from the
--   datastore's language (generated columns cannot read another table), with "tsvLength", the chunk's length for
--   BM25 (its lexemes' positions). STORAGE MAIN keeps the tsvector in the row (not in TOAST), where ranking reads it.
-- * "DatastoreTextStats" (chunks and total length) and "DatastoreTerm" (how many chunks hold each lexeme) per
--   datastore are kept by statement-level triggers on "Chunk" in the writing transaction, so every path that
--   inserts, replaces or deletes chunks (the ingestion lifecycle, datasource and datastore deletes and their
--   cascades, page pruning, a language change) keeps them exact. They are derived data: recomputable from "Chunk".
-- * Chinese, Japanese and Korean runs have no word boundaries the parser knows: search_document() indexes them as
--   overlapping character bigrams (a run of one character as itself), in any datastore and in questions alike.

ALTER TABLE "Datastore" ADD COLUMN "language" TEXT NOT NULL DEFAULT 'english';

-- CJK runs (kana, CJK ideographs and extension A, compatibility ideographs, Hangul syllables, half-width kana)
CREATE FUNCTION search_cjk_bigrams(body text) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT COALESCE(string_agg(
           CASE WHEN length(m.run[1]) = 1 THEN m.run[1]
                ELSE (SELECT string_agg(substr(m.run[1], i, 2), ' ' ORDER BY i) FROM generate_series(1, length(m.run[1]) - 1) AS i) END,
           ' ' ORDER BY m.n), '')
  FROM regexp_matches(body, '[\u3040-\u30ff\u3100-\u312f\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\uff66-\uff9f]+', 'g') WITH ORDINALITY AS m(run, n)
$$;

-- The tsvector of a text in a configuration: the configuration's own words, and CJK runs as bigrams. Questions and
-- chunks both go through it (lib/search/fulltext.ts), so they are tokenised alike.
CREATE FUNCTION search_document(config regconfig, body text) RETURNS tsvector
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT CASE
    WHEN body ~ '[\u3040-\u30ff\u3100-\u312f\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\uff66-\uff9f]'
    THEN to_tsvector(config, regexp_replace(body, '[\u3040-\u30ff\u3100-\u312f\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\uff66-\uff9f]+', ' ', 'g'))
         || to_tsvector('simple', search_cjk_bigrams(body))
    ELSE to_tsvector(config, body)
  END
$$;

-- BM25's document length: the lexemes' positions (stop words are not counted)
CREATE FUNCTION search_length(document tsvector) RETURNS integer
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT COALESCE(sum(cardinality(positions)), 0)::integer FROM unnest(document)
$$;

-- How many times a one-lexeme tsquery's lexeme occurs in a tsvector (its positions; a tsvector keeps at most 256),
-- read through ts_rank, which is C and reads only that lexeme's entry: with every weight 1 and one lexeme, ts_rank
-- is sum(1/j², j = 1..tf) / (π²/6) (calc_rank_or, src/backend/utils/adt/tsrank.c), a float4 that this inverts
-- exactly for tf 0 to 255 (1 / (π²/6 - sum) is within 0.1 of tf + 0.5; tests/search-bm25.test.ts checks each),
-- 256 reading as 255. About 3× cheaper a candidate than unnesting the tsvector. Single precision (real) throughout:
-- on PGlite (32-bit WebAssembly) every double-precision result is a memory allocation.
CREATE FUNCTION search_term_frequency(document tsvector, term tsquery) RETURNS integer
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT (1::real / (1.64493406685::real * (1::real - ts_rank('{1,1,1,1}', document, term))) - 0.5::real)::integer
$$;

ALTER TABLE "Chunk" ALTER COLUMN "tsv" DROP EXPRESSION;
ALTER TABLE "Chunk" ALTER COLUMN "tsv" SET STORAGE MAIN;
ALTER TABLE "Chunk" ADD COLUMN "tsvLength" INTEGER NOT NULL DEFAULT 0;

CREATE FUNCTION chunk_index_text() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.tsv := search_document(COALESCE((SELECT d."language" FROM "Datastore" d WHERE d.id = NEW."datastoreId"), 'english')::regconfig, NEW.text);
  NEW."tsvLength" := search_length(NEW.tsv);
  RETURN NEW;
END $$;
CREATE TRIGGER "Chunk_index_text" BEFORE INSERT OR UPDATE OF text, "datastoreId" ON "Chunk" FOR EACH ROW EXECUTE FUNCTION chunk_index_text();

CREATE TABLE "DatastoreTextStats" (
    "datastoreId" TEXT NOT NULL,
    "chunks" BIGINT NOT NULL,
    "length" BIGINT NOT NULL,
    CONSTRAINT "DatastoreTextStats_pkey" PRIMARY KEY ("datastoreId"),
    CONSTRAINT "DatastoreTextStats_datastoreId_fkey" FOREIGN KEY ("datastoreId") REFERENCES "Datastore"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE TABLE "DatastoreTerm" (
    "datastoreId" TEXT NOT NULL,
    "lexeme" TEXT NOT NULL,
    "df" INTEGER NOT NULL,
    CONSTRAINT "DatastoreTerm_pkey" PRIMARY KEY ("datastoreId", "lexeme"),
    CONSTRAINT "DatastoreTerm_datastoreId_fkey" FOREIGN KEY ("datastoreId") REFERENCES "Datastore"("id") ON DELETE CASCADE ON UPDATE CASCADE
) WITH (fillfactor = 60); -- room on each page for the counts' updates (HOT: no index entry each time)
COMMENT ON TABLE "DatastoreTextStats" IS 'derived: kept by triggers on "Chunk"; a copy of the database recomputes it from the chunks';
COMMENT ON TABLE "DatastoreTerm" IS 'derived: kept by triggers on "Chunk"; a copy of the database recomputes it from the chunks';

-- Existing chunks: indexed again (CJK bigrams, lengths), then counted
UPDATE "Chunk" SET text = text;
INSERT INTO "DatastoreTextStats" ("datastoreId", chunks, length)
  SELECT "datastoreId", count(*), sum("tsvLength") FROM "Chunk" GROUP BY 1;
INSERT INTO "DatastoreTerm" ("datastoreId", lexeme, df)
  SELECT c."datastoreId", l.lexeme, count(*) FROM "Chunk" c, unnest(tsvector_to_array(c.tsv)) AS l(lexeme) GROUP BY 1, 2;

-- The statistics of the chunks a statement removed (its old rows) and added (its new rows): one trigger function for
-- INSERT, DELETE and UPDATE, each with its transition tables. Chunks of a datastore being deleted are skipped: its
-- statistics go with it (foreign-key cascade). A lexeme whose count reaches 0 is removed.
CREATE FUNCTION chunk_statistics() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
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
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO "DatastoreTextStats" AS s ("datastoreId", chunks, length)
      SELECT "datastoreId", count(*), sum("tsvLength") FROM added GROUP BY 1
      ON CONFLICT ("datastoreId") DO UPDATE SET chunks = s.chunks + EXCLUDED.chunks, length = s.length + EXCLUDED.length;
    INSERT INTO "DatastoreTerm" AS t ("datastoreId", lexeme, df)
      SELECT c."datastoreId", l.lexeme, count(*) FROM added c, unnest(tsvector_to_array(c.tsv)) AS l(lexeme) GROUP BY 1, 2
      ON CONFLICT ("datastoreId", lexeme) DO UPDATE SET df = t.df + EXCLUDED.df;
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER "Chunk_statistics_insert" AFTER INSERT ON "Chunk" REFERENCING NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION chunk_statistics();
CREATE TRIGGER "Chunk_statistics_delete" AFTER DELETE ON "Chunk" REFERENCING OLD TABLE AS removed
  FOR EACH STATEMENT EXECUTE FUNCTION chunk_statistics();
CREATE TRIGGER "Chunk_statistics_update" AFTER UPDATE ON "Chunk" REFERENCING OLD TABLE AS removed NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION chunk_statistics();

-- A datastore's new language indexes its chunks again (the triggers above keep the statistics)
CREATE FUNCTION datastore_language_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "Chunk" SET text = text WHERE "datastoreId" = NEW.id;
  RETURN NULL;
END $$;
CREATE TRIGGER "Datastore_language_changed" AFTER UPDATE OF "language" ON "Datastore"
  FOR EACH ROW WHEN (OLD."language" IS DISTINCT FROM NEW."language") EXECUTE FUNCTION datastore_language_changed();
