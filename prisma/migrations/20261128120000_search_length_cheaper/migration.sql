-- A chunk's BM25 length (the positions of its tsvector) is written by the chunk's trigger on every insert and
-- update of its text. Counted with unnest(), which builds a row, an array of positions and an array of weights a
-- lexeme, it cost ~150 µs a 300-word chunk on PGlite, about a fifth of the text's indexing. ts_rank counts the same
-- positions in C (cnt_length in src/backend/utils/adt/tsrank.c, by which normalisation 2 divides the rank): the rank of
-- a query that matches every lexeme beginning with a digit or a Latin letter, divided by the same rank normalised by
-- the length, is the length (within float4's precision, exact once rounded below 4 million positions; a tsvector holds
-- far fewer). A tsvector without such a lexeme (a text only in another script, or empty) is counted as before. ~35 µs
-- instead of ~150; the same value for every tsvector (tests/search-statistics.test.ts), so stored lengths stay valid.
CREATE FUNCTION search_length_by_positions(document tsvector) RETURNS integer
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT COALESCE(sum(cardinality(positions)), 0)::integer FROM unnest(document)
$$;

-- Not STRICT, so that PostgreSQL inlines it into the trigger's expression (a NULL tsvector still gives NULL)
CREATE OR REPLACE FUNCTION search_length(document tsvector) RETURNS integer
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT COALESCE(
    round(ts_rank('{1,1,1,1}', document, '''0'':* | ''1'':* | ''2'':* | ''3'':* | ''4'':* | ''5'':* | ''6'':* | ''7'':* | ''8'':* | ''9'':* | ''a'':* | ''b'':* | ''c'':* | ''d'':* | ''e'':* | ''f'':* | ''g'':* | ''h'':* | ''i'':* | ''j'':* | ''k'':* | ''l'':* | ''m'':* | ''n'':* | ''o'':* | ''p'':* | ''q'':* | ''r'':* | ''s'':* | ''t'':* | ''u'':* | ''v'':* | ''w'':* | ''x'':* | ''y'':* | ''z'':*'::tsquery, 0)::float8
          / NULLIF(ts_rank('{1,1,1,1}', document, '''0'':* | ''1'':* | ''2'':* | ''3'':* | ''4'':* | ''5'':* | ''6'':* | ''7'':* | ''8'':* | ''9'':* | ''a'':* | ''b'':* | ''c'':* | ''d'':* | ''e'':* | ''f'':* | ''g'':* | ''h'':* | ''i'':* | ''j'':* | ''k'':* | ''l'':* | ''m'':* | ''n'':* | ''o'':* | ''p'':* | ''q'':* | ''r'':* | ''s'':* | ''t'':* | ''u'':* | ''v'':* | ''w'':* | ''x'':* | ''y'':* | ''z'':*'::tsquery, 2), 0)::float8)::integer,
    search_length_by_positions(document))
$$;
