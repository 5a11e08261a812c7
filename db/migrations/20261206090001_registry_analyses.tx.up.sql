-- The registry analysis of a successful OCR task, stored in the transaction
-- that records the result (or the uploaded copy's result) and recomputed by
-- the registry_reanalysis job when the parser version or the nest's
-- 고유번호 or address changes; reads judge from it without the OCR result's
-- pages (docs/ocr-and-analysis.md, "Stored analyses").
CREATE TABLE registry_analyses (
    ocr_task_id      uuid PRIMARY KEY REFERENCES ocr_tasks (id) ON DELETE CASCADE,
    nest_id          uuid        NOT NULL REFERENCES nests (id) ON DELETE CASCADE,
    source           text        NOT NULL CHECK (source IN ('ISSUED', 'UPLOADED')),
    parser_version   integer     NOT NULL,
    analyzed_at      timestamptz NOT NULL,
    -- analysis.Registry; NULL when no entry could be read, and error says why.
    registry         jsonb,
    error            text,
    -- The copy's 열람일시 as read (registry.printed_at): the nest's newest copy
    -- is chosen by it. A day still to come is a misreading, decided at read.
    printed_at       timestamptz,
    -- analysis.Prepared: the checks of the document alone, which read every
    -- line of every page; a read adds the nest's and the time's.
    prepared         jsonb       NOT NULL,
    -- The judgement as it stood at judged_at against the nest's 고유번호 and
    -- address then, with its findings (no deposit or price): for SQL readers.
    -- The API judges at each read against the nest as it is.
    judged_unique_no text        NOT NULL,
    judged_address   text        NOT NULL,
    judged_at        timestamptz NOT NULL,
    verdict          text        NOT NULL,
    reasons          jsonb       NOT NULL,
    advice           text        NOT NULL,
    findings         jsonb       NOT NULL
);
CREATE INDEX registry_analyses_nest_idx ON registry_analyses (nest_id);
CREATE INDEX registry_analyses_parser_version_idx ON registry_analyses (parser_version);
