package io.jdbcrepl.sql;

/**
 * The sentences {@link Opaque} statements carry: what cannot be captured, why, and what to write
 * instead. Each ends with the way out, {@code repl.unsupported=passthrough}.
 */
final class Reasons {

    private static final String PASSTHROUGH =
            ", or set repl.unsupported=passthrough to run it uncaptured (its changes then do not replicate).";

    static final String MERGE = "MERGE cannot be captured: the rows it changes are not known before it runs."
            + " Use INSERT … ON CONFLICT (PostgreSQL), INSERT … ON DUPLICATE KEY UPDATE (MySQL/MariaDB)"
            + " or separate INSERT and UPDATE statements" + PASSTHROUGH;
    static final String REPLACE = "REPLACE/UPSERT cannot be captured: it deletes and re-inserts rows the SQL"
            + " does not name. Use INSERT … ON DUPLICATE KEY UPDATE (MySQL/MariaDB) or INSERT … ON CONFLICT"
            + " (PostgreSQL)" + PASSTHROUGH;
    static final String TRUNCATE = "TRUNCATE cannot be captured: it empties tables without row-level changes"
            + " (with CASCADE also tables it does not name). Use DELETE FROM the table" + PASSTHROUGH;
    static final String CALL = "CALL cannot be captured: what the procedure changes is out of the driver's sight,"
            + " so the peers would not get it and would diverge. Do the procedure's writes through the driver"
            + " (its INSERT/UPDATE/DELETE statements from the application)" + PASSTHROUGH;
    static final String EXECUTE = "EXECUTE cannot be captured: it runs a statement prepared in SQL (PREPARE),"
            + " which the driver does not see. Prepare it through JDBC (Connection.prepareStatement) instead"
            + PASSTHROUGH;
    static final String DO = "DO cannot be captured: what its block changes is out of the driver's sight, so"
            + " the peers would not get it and would diverge. Do the block's writes through the driver (its"
            + " statements one by one from the application)" + PASSTHROUGH;
    static final String RUNSCRIPT = "RUNSCRIPT cannot be captured: it runs statements from a file the driver"
            + " does not see. Run them through the driver one by one" + PASSTHROUGH;
    static final String COPY = "COPY … FROM in this form cannot be captured. The driver captures COPY table"
            + " [(columns)] FROM STDIN | 'file' | PROGRAM 'command' [options] (staged in a temporary table, its rows"
            + " then inserted): write it that way, or use INSERT" + PASSTHROUGH;
    static final String LOAD_DATA = "LOAD DATA in this form (LOAD XML, PARTITION) cannot be captured. The driver"
            + " captures LOAD DATA [LOCAL] INFILE 'file' [IGNORE] INTO TABLE t … [(columns)] [SET …] (staged in a"
            + " temporary table, its rows then inserted): write it that way, or use INSERT" + PASSTHROUGH;
    static final String EXPLAIN_ANALYZE = "EXPLAIN ANALYZE cannot be captured: it runs the statement it"
            + " explains, so that statement's changes would not be captured. Run the statement itself, or"
            + " EXPLAIN it without ANALYZE" + PASSTHROUGH;
    static final String DATA_MODIFYING_WITH = "A WITH query that contains INSERT, UPDATE or DELETE cannot be"
            + " captured: the rows it changes are not known before it runs. Run each data-changing statement"
            + " on its own" + PASSTHROUGH;
    static final String WITH_DML = "INSERT, UPDATE or DELETE with a WITH clause cannot be captured. Write the"
            + " WITH query as a subquery of the statement (… WHERE id IN (SELECT …))" + PASSTHROUGH;
    static final String DELTA_TABLE = "A query over the rows a data change returns (FINAL/NEW/OLD TABLE (…))"
            + " cannot be captured. Run the INSERT, UPDATE or DELETE on its own" + PASSTHROUGH;
    static final String MULTI_TABLE_UPDATE = "An UPDATE of several tables (UPDATE a JOIN b …, UPDATE a, b …)"
            + " cannot be captured: it may change rows of each table it names. Update one table and name the"
            + " others in a subquery (UPDATE a SET … WHERE a.id IN (SELECT …))" + PASSTHROUGH;
    static final String MULTI_TABLE_DELETE = "A DELETE in multi-table form (DELETE a, b FROM …, DELETE a FROM a"
            + " JOIN b …) cannot be captured. Delete from one table and name the others in a subquery"
            + " (DELETE FROM a WHERE a.id IN (SELECT …))" + PASSTHROUGH;
    static final String MULTI_TABLE_UNQUALIFIED = "A multi-table UPDATE can be captured when each SET column"
            + " names its table (SET a.x = …, b.y = …): write the table's name or alias before each column" + PASSTHROUGH;
    static final String FROM_LIST = "UPDATE … FROM can be captured when its FROM list names tables, views,"
            + " subqueries and VALUES lists joined with ON, not a function (write it as a subquery,"
            + " (SELECT * FROM f(…)) AS x), an aliased join or a NATURAL join or JOIN … USING (write JOIN … ON)"
            + PASSTHROUGH;
    static final String ROW_SUBQUERY_SET = "UPDATE … SET (a, b) = (SELECT …) cannot be captured column by"
            + " column. Assign each column on its own (SET a = (SELECT …), b = (SELECT …))" + PASSTHROUGH;
    static final String SEVERAL_STATEMENTS = "Several statements in one execute cannot be captured: each must"
            + " be analysed on its own. Execute one statement per call (or use addBatch)" + PASSTHROUGH;
    static final String NUMBERED_PARAMETERS = "Numbered parameters ($1, ?1) are not JDBC parameters, so the"
            + " statement's values cannot be captured. Write ? placeholders" + PASSTHROUGH;
    static final String EXECUTABLE_COMMENT = "MySQL executable comments (/*! … */) change the statement in ways"
            + " the driver cannot see. Write their content as plain SQL" + PASSTHROUGH;

    private Reasons() {
    }

    /** For a statement the parser rejected or this package cannot take apart. */
    static String unparsed(String keyword, String problem) {
        return keyword + " could not be analysed (" + problem + "), so the rows it changes cannot be captured."
                + " Write it as a plain single-table INSERT, UPDATE or DELETE" + PASSTHROUGH;
    }

    /** The first line of a parser message, without its list of expected tokens, at most 160 chars. */
    static String abbreviate(String parserMessage) {
        if (parserMessage == null || parserMessage.isBlank()) return "the SQL parser gave no reason";
        String m = parserMessage;
        int expecting = m.indexOf("Was expecting");
        if (expecting >= 0) m = m.substring(0, expecting);
        m = m.replaceAll("\\s+", " ").strip();
        if (m.endsWith(".")) m = m.substring(0, m.length() - 1);
        if (m.length() > 160) m = m.substring(0, 157) + "...";
        return "the SQL parser says: " + m;
    }
}
