package io.jdbcrepl.dialect.postgresql;

import io.jdbcrepl.capture.CaptureException;
import io.jdbcrepl.capture.CaptureSettings;
import io.jdbcrepl.capture.ColumnInfo;
import io.jdbcrepl.capture.LoggedColumns;
import io.jdbcrepl.capture.SignedLcr;
import io.jdbcrepl.capture.TableInfo;
import io.jdbcrepl.sql.Assignment;
import io.jdbcrepl.sql.ColumnRef;
import io.jdbcrepl.dialect.Dialect;
import io.jdbcrepl.sql.Dml;
import io.jdbcrepl.sql.FromRelation;
import io.jdbcrepl.sql.InsertSource;
import io.jdbcrepl.sql.OnConflict;
import io.jdbcrepl.sql.SqlFragment;
import io.jdbcrepl.sql.WithDml;
import io.jdbcrepl.intercept.SqlState;
import io.jdbcrepl.lcr.Json;
import io.jdbcrepl.lcr.ValueType;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Rewrites an INSERT, UPDATE or DELETE into one statement that changes the rows and writes one
 * row LCR each into the change log:
 *
 * <pre>
 * WITH repl_changed AS (
 *   UPDATE t SET … FROM (SELECT t.k AS repl_o1, … FROM t WHERE … FOR [NO KEY] UPDATE OF t) AS repl_old
 *   WHERE t.k = repl_old.repl_o1 RETURNING t.*, repl_old.*)
 * INSERT INTO repl_log (…) SELECT …, json_build_object(…), … FROM repl_changed
 * </pre>
 *
 * The old rows are locked and read by the same statement that changes them, under its snapshot, so
 * rows committed concurrently are changed and logged together or not at all. The application's
 * text is kept in its order, so its {@code ?} parameters stay where they were: executions only
 * bind. The update count of the outer INSERT is the number of rows changed; a statement with its own
 * RETURNING ends in a SELECT of those items instead.
 */
public final class PostgresCapture {

    /** The SQL this planner writes and reads. */
    private static final Dialect DIALECT = Dialect.named("postgresql");

    private static final java.util.Set<String> CHARACTER_TYPES = java.util.Set.of("bpchar", "char", "character",
            "varchar", "character varying", "text", "name", "citext");

    /** json_build_object takes at most 100 arguments: 50 columns a call. */
    private static final int COLUMNS_PER_CALL = 50;

    private final String logTable;
    private final String node;
    /** repl.log.key is set: the sequence behind repl_log.position, else null (LCRs are not signed). */
    private final String positionSequence;
    /** The names of the CTEs of the changed rows and of the log insert: a WITH query's own ones inside a WITH. */
    private final String changed;
    private final String logged;
    /** Planning a data-modifying WITH query: its header as written ({@code name [(columns)] AS}), else null. */
    private final String withQuery;
    /**
     * Inside a WITH: the log insert of the data change written before this one, which this one's
     * log insert waits for, so that the log has the changes in the order the statement lists them
     * (PostgreSQL runs a statement's WITH queries in an order of its own); else null.
     */
    private final String loggedBefore;

    /**
     * @param logTable the change log, quoted and qualified as it should appear in SQL
     * @param node     this node's name ({@code repl.node})
     */
    public PostgresCapture(String logTable, String node) {
        this(logTable, node, null);
    }

    /**
     * @param positionSequence with repl.log.key, the sequence of repl_log's position column (as
     *                         {@code pg_get_serial_sequence} names it): every LCR is then signed in
     *                         the capturing statement itself with the HMAC key pads of the
     *                         session settings {@link #INNER_PAD_SETTING} and {@link #OUTER_PAD_SETTING}
     */
    public PostgresCapture(String logTable, String node, String positionSequence) {
        this(logTable, node, positionSequence, "", null, null);
    }

    private PostgresCapture(String logTable, String node, String positionSequence, String suffix, String withQuery,
            String loggedBefore) {
        this.logTable = logTable;
        this.node = node;
        this.positionSequence = positionSequence;
        this.changed = "repl_changed" + suffix;
        this.logged = "repl_logged" + suffix;
        this.withQuery = withQuery;
        this.loggedBefore = loggedBefore;
    }

    /**
     * repl.log.key's HMAC pads, hex, as settings of the capturing session (SPEC 8.7). Settings and
     * not SQL text: pg_stat_activity shows other sessions of the same role the text of their
     * statements, and the pads are as good as the key; a session's settings are its own. Set once
     * per connection with bound values (so not in pg_stat_activity either); only a server that logs
     * bound parameters (log_statement=all) would write them to its log.
     */
    public static final String INNER_PAD_SETTING = "jdbc_repl.log_ipad";
    public static final String OUTER_PAD_SETTING = "jdbc_repl.log_opad";

    /** The plan for one statement on one table. */
    public CapturePlan plan(Dml dml, TableInfo table, CaptureSettings settings) throws SQLException {
        return plan(dml, table, settings, null);
    }

    /**
     * The plan for a statement whose generated keys the application asked for: it ends in a SELECT
     * of {@code keyColumns} (every column when empty) of the changed rows, as pgjdbc's appended
     * {@code RETURNING} would have returned them.
     */
    public CapturePlan planReturning(Dml dml, TableInfo table, CaptureSettings settings, List<String> keyColumns)
            throws SQLException {
        if (!dml.returning().isEmpty()) {
            throw new CaptureException("A statement with its own RETURNING cannot also ask for generated keys: "
                    + dml.sql());
        }
        List<String> items = new ArrayList<>();
        String ref = reference(dml);
        if (keyColumns.isEmpty()) {
            for (ColumnInfo c : table.columns()) items.add(ref + "." + quote(c.name()));
        } else {
            for (String k : keyColumns) items.add(ref + "." + quote(table.storedName(DIALECT.fold(k))));
        }
        return plan(dml, table, settings, items);
    }

    /**
     * The plan for a statement with data-modifying WITH queries or a data-changing main statement
     * ({@link WithDml}): each data change on a replicated table captures itself as a single statement
     * does, its CTEs (changed rows, log insert) among the statement's own WITH queries; a WITH query
     * keeps its name and columns as a SELECT of its RETURNING items from the changed rows; the rest
     * stays as written. Every part runs in the statement's one snapshot, as PostgreSQL runs them; the log
     * has the changes in the order written (a peer applies them one by one: delete a child before its parent).
     *
     * @param tables   per {@link WithDml#changes()}: its table, or null when it is not replicated
     * @param settings per {@link WithDml#changes()}: its table's settings (null with a null table)
     */
    public CapturePlan planWith(WithDml with, List<TableInfo> tables, List<CaptureSettings> settings)
            throws SQLException {
        StringBuilder sql = new StringBuilder(with.head());
        int change = 0;
        String loggedBefore = null;
        for (int i = 0; i < with.queries().size(); i++) {
            WithDml.Part query = with.queries().get(i);
            if (i > 0) sql.append(", ");
            TableInfo table = query.dml() == null ? null : tables.get(change);
            if (table == null) {
                sql.append(query.header()).append(" (").append(query.text()).append(')');
            } else {
                if (query.dml().onConflict() != null && !query.dml().onConflict().doNothing()) {
                    throw new CaptureException("INSERT … ON CONFLICT DO UPDATE inside WITH on " + table.qualifiedName()
                            + " cannot be captured: run it as a statement of its own");
                }
                PostgresCapture inner = new PostgresCapture(logTable, node, positionSequence, "_w" + (i + 1),
                        query.header(), loggedBefore);
                sql.append(inner.plan(query.dml(), table, settings.get(change)).sql());
                loggedBefore = inner.logged;
            }
            if (query.dml() != null) change++;
        }
        WithDml.Part main = with.main();
        TableInfo table = main.dml() == null ? null : tables.get(change);
        if (table == null) {
            sql.append(' ').append(main.text());
            return new CapturePlan(sql.toString(), main.dml() == null || !main.dml().returning().isEmpty()
                    ? CapturePlan.Result.ROWS : CapturePlan.Result.UPDATE_COUNT, with.parameterCount(), false);
        }
        CapturePlan plan = new PostgresCapture(logTable, node, positionSequence, "", null, loggedBefore)
                .plan(main.dml(), table, settings.get(change));
        sql.append(", ").append(plan.sql(), "WITH ".length(), plan.sql().length());
        return new CapturePlan(sql.toString(), plan.result(), with.parameterCount(), plan.retriesOnConcurrentInsert());
    }

    /**
     * A data-modifying WITH query's CTEs, to stand among the statement's own: the changed rows, the
     * log insert, and under the query's own name the SELECT of its RETURNING items (none without).
     */
    private CapturePlan asWithQuery(Dml dml, TableInfo table, StringBuilder sql, String logInsert) {
        StringBuilder ctes = new StringBuilder(sql.substring("WITH ".length()).strip());
        ctes.append(", ").append(logged).append(" AS (").append(logInsert).append(" RETURNING 1)");
        if (!dml.returning().isEmpty()) {
            ctes.append(", ").append(withQuery).append(" (").append(returningSelect(dml, table)).append(')');
        }
        return new CapturePlan(ctes.toString(), CapturePlan.Result.ROWS, dml.parameterCount(), false);
    }

    private CapturePlan plan(Dml dml, TableInfo table, CaptureSettings settings, List<String> selectItems)
            throws SQLException {
        return switch (dml.command()) {
            case INSERT -> dml.onConflict() != null && !dml.onConflict().doNothing()
                    ? upsert(dml, table, settings, selectItems)
                    : insert(dml, table, settings, selectItems);
            case UPDATE -> update(dml, table, settings, selectItems);
            case DELETE -> delete(dml, table, selectItems);
            case DDL -> throw new IllegalArgumentException("DDL is not a row change");
        };
    }

    // ---- INSERT

    private CapturePlan insert(Dml dml, TableInfo table, CaptureSettings settings, List<String> selectItems) throws CaptureException {
        List<String> columns = insertColumns(dml, table);
        String ts = settings.timestampColumn() == null ? null : table.storedName(settings.timestampColumn());
        if (ts != null && columns.isEmpty() && dml.insertSource() instanceof InsertSource.Query) {
            throw new CaptureException("INSERT ... SELECT without a column list into " + table.qualifiedName()
                    + ", whose repl.timestamp column the driver sets, cannot be captured: name the columns");
        }
        StringBuilder source = new StringBuilder();
        List<String> targetColumns = new ArrayList<>(columns);
        InsertSource src = dml.insertSource();
        if (ts == null) {
            source.append(src.text().text());
        } else if (src instanceof InsertSource.Values values) {
            if (!columns.contains(ts)) targetColumns.add(ts);
            source.append(valuesWithTimestamp(values, columns.indexOf(ts)));
        } else if (src instanceof InsertSource.Query query) {
            // Positional column names for the query's output, so one of them can be replaced.
            if (!columns.contains(ts)) targetColumns.add(ts);
            source.append(queryWithTimestamp(query.text().text(), columns, columns.indexOf(ts)));
        } else {
            targetColumns = List.of(ts);
            source.append("VALUES (").append(clock()).append(')');
        }

        StringBuilder change = new StringBuilder("INSERT INTO ").append(dml.target().sqlText());
        if (dml.target().alias() != null) change.append(" AS ").append(reference(dml));
        if (!targetColumns.isEmpty()) change.append(" (").append(quotedList(targetColumns)).append(')');
        change.append(' ').append(source);
        if (dml.onConflict() != null) change.append(' ').append(dml.onConflict().clause().text());
        change.append(" RETURNING ").append(reference(dml)).append(".*");

        List<String> assigned = targetColumns.isEmpty() && dml.insertSource() instanceof InsertSource.Query
                ? table.columns().stream().map(ColumnInfo::name).toList() : targetColumns;
        LoggedColumns logged = LoggedColumns.forInsert(table, assigned, settings);
        String json = jsonObject(table, logged.newColumns(), changed, name -> name);
        return finish(dml, table, selectItems, change.toString(), "NULL", json, logged);
    }

    /** The columns an INSERT names, or the first columns of the table for one that names none. */
    private static List<String> insertColumns(Dml dml, TableInfo table) throws CaptureException {
        if (!dml.assignedColumns().isEmpty()) {
            return dml.assignedColumns().stream().map(c -> stored(table, c)).toList();
        }
        if (dml.insertSource() instanceof InsertSource.Values values) {
            int arity = values.rows().get(0).size();
            if (arity > table.columns().size()) {
                throw new CaptureException("INSERT into " + table.qualifiedName() + " gives " + arity
                        + " values for " + table.columns().size() + " columns");
            }
            return table.columns().subList(0, arity).stream().map(ColumnInfo::name).toList();
        }
        // A query without a column list fills the first columns, as many as it selects: unknown here,
        // so the statement keeps having no list (and its change vector names every column).
        return List.of();
    }

    // ---- INSERT ... ON CONFLICT DO UPDATE

    /**
     * The rows that may conflict are locked first (a CTE the INSERT's source waits for), so the
     * updated rows' old values are known; the INSERT reads its rows from a CTE so that the
     * application's parameters still appear once and in order. A row a concurrent transaction
     * inserted after the lock was taken has no old values: the statement then fails with
     * {@link #CONCURRENT_INSERT} and the caller runs it again (its snapshot then sees that row).
     * An updated row finds its locked old row by its conflict columns; when DO UPDATE assigns one of
     * them the new row no longer has the old values, so the DO UPDATE's WHERE hands the old row's
     * conflict columns to RETURNING through a transaction-local setting ({@link #OLD_KEY_SETTING}):
     * PostgreSQL evaluates that WHERE, updates the row and computes its RETURNING row by row.
     */
    private CapturePlan upsert(Dml dml, TableInfo table, CaptureSettings settings, List<String> selectItems)
            throws SQLException {
        OnConflict conflict = dml.onConflict();
        if (conflict.targetColumns().isEmpty() && conflict.constraint() == null) {
            // PostgreSQL's own error, before anything runs
            throw SqlState.SYNTAX_ERROR.exception("ON CONFLICT DO UPDATE requires inference specification or constraint name");
        }
        InsertSource src = dml.insertSource();
        if (src instanceof InsertSource.DefaultValues) {
            throw new CaptureException("INSERT ... DEFAULT VALUES ON CONFLICT DO UPDATE on " + table.qualifiedName()
                    + " cannot be captured: list the columns, or set repl.unsupported=passthrough");
        }
        List<String> columns = insertColumns(dml, table);
        if (columns.isEmpty()) {
            throw new CaptureException("INSERT ... SELECT ... ON CONFLICT DO UPDATE without a column list into "
                    + table.qualifiedName() + " cannot be captured: name the columns");
        }
        String ts = settings.timestampColumn() == null ? null : table.storedName(settings.timestampColumn());
        List<String> targetColumns = new ArrayList<>(columns);
        if (ts != null && !columns.contains(ts)) targetColumns.add(ts);
        String ref = reference(dml);

        String values;
        if (src instanceof InsertSource.Values v) {
            for (List<SqlFragment> row : v.rows()) {
                for (SqlFragment f : row) {
                    if (f.text().trim().equalsIgnoreCase("DEFAULT")) {
                        throw new CaptureException("DEFAULT in the VALUES of INSERT ... ON CONFLICT DO UPDATE on "
                                + table.qualifiedName() + " cannot be captured: give the value, leave the column out,"
                                + " or set repl.unsupported=passthrough");
                    }
                }
            }
            values = ts == null ? src.text().text() : valuesWithTimestamp(v, columns.indexOf(ts));
        } else {
            values = ts == null ? src.text().text()
                    : queryWithTimestamp(((InsertSource.Query) src).text().text(), columns, columns.indexOf(ts));
        }

        List<String> conflictColumns = conflictColumns(conflict, table);
        List<String> updated = new ArrayList<>();
        for (Assignment a : conflict.assignments()) updated.add(stored(table, a.column()));
        LoggedColumns asInsert = LoggedColumns.forInsert(table, targetColumns, settings);
        LoggedColumns asUpdate = LoggedColumns.forUpdate(table, updated, settings);

        // Locked columns: the update's old values, and the conflict columns to find them again.
        List<String> lockedColumns = new ArrayList<>(asUpdate.oldColumns());
        for (String c : conflictColumns) if (!lockedColumns.contains(c)) lockedColumns.add(c);
        Map<String, String> oldAlias = new LinkedHashMap<>();
        for (int i = 0; i < lockedColumns.size(); i++) oldAlias.put(lockedColumns.get(i), "repl_o" + (i + 1));

        StringBuilder sql = new StringBuilder("WITH repl_v (").append(quotedList(targetColumns)).append(") AS (")
                .append(values).append("), repl_lock AS (SELECT ");
        boolean first = true;
        for (Map.Entry<String, String> e : oldAlias.entrySet()) {
            if (!first) sql.append(", ");
            first = false;
            sql.append(ref).append('.').append(quote(e.getKey())).append(" AS ").append(e.getValue());
        }
        sql.append(" FROM ").append(dml.target().sqlText());
        if (dml.target().alias() != null) sql.append(" AS ").append(ref);
        sql.append(" WHERE (").append(qualifiedList(ref, conflictColumns)).append(") IN (SELECT ")
                .append(qualifiedList("repl_v", conflictColumns)).append(" FROM repl_v) ").append(lockClause(table, updated, ts))
                .append(" OF ").append(ref)
                .append("), repl_changed AS (INSERT INTO ").append(dml.target().sqlText());
        if (dml.target().alias() != null) sql.append(" AS ").append(ref);
        sql.append(" (").append(quotedList(targetColumns)).append(") SELECT * FROM repl_v")
                // The source waits for the lock: rows it would conflict with are locked first.
                .append(" WHERE (SELECT count(*) FROM repl_lock) >= 0 ON CONFLICT ");
        if (conflict.constraint() != null) {
            sql.append("ON CONSTRAINT ").append(conflict.constraint());
        } else {
            sql.append('(').append(quotedList(conflictColumns)).append(')');
            if (conflict.targetWhere() != null) sql.append(" WHERE ").append(conflict.targetWhere().text());
        }
        sql.append(" DO UPDATE SET ");
        for (int i = 0; i < conflict.assignments().size(); i++) {
            Assignment a = conflict.assignments().get(i);
            String column = stored(table, a.column());
            if (i > 0) sql.append(", ");
            String existing = ref + "." + quote(column);
            sql.append(quote(column)).append(" = ").append(column.equals(ts)
                    ? overriding(a.value().text(), nextTimestampFrom(existing)) : a.value().text());
        }
        if (ts != null && !updated.contains(ts)) {
            sql.append(", ").append(quote(ts)).append(" = ").append(nextTimestampFrom(ref + "." + quote(ts)));
        }
        boolean conflictColumnAssigned = updated.stream().anyMatch(conflictColumns::contains);
        if (conflictColumnAssigned) {
            // The old row's conflict columns, evaluated for every row the DO UPDATE changes
            sql.append(" WHERE ").append(conflict.where() == null ? "" : "(" + conflict.where().text() + ") AND ")
                    .append("set_config(").append(literal(OLD_KEY_SETTING)).append(", ROW(")
                    .append(qualifiedList(ref, conflictColumns)).append(")::text, true) IS NOT NULL");
        } else if (conflict.where() != null) {
            sql.append(" WHERE ").append(conflict.where().text());
        }
        sql.append(" RETURNING ").append(ref).append(".*, (").append(ref).append(".xmax = 0) AS repl_inserted");
        if (conflictColumnAssigned) {
            sql.append(", current_setting(").append(literal(OLD_KEY_SETTING)).append(", true) AS repl_old_key");
        }
        sql.append(") ");

        String join = conflictColumnAssigned
                ? "ROW(" + qualifiedList("repl_lock", conflictColumns.stream().map(oldAlias::get).toList())
                        + ")::text = repl_changed.repl_old_key"
                : conflictColumns.stream()
                        .map(c -> "repl_lock." + oldAlias.get(c) + " = repl_changed." + quote(c))
                        .reduce((a, b) -> a + " AND " + b).orElseThrow();
        String inserted = logSelect("INSERT", table, "NULL",
                jsonObject(table, asInsert.newColumns(), "repl_changed", name -> name), asInsert)
                + " FROM repl_changed WHERE repl_changed.repl_inserted";
        String updatedRows = logSelect("UPDATE", table,
                jsonObject(table, asUpdate.oldColumns(), "repl_lock", oldAlias::get),
                jsonObject(table, asUpdate.newColumns(), "repl_changed", name -> name), asUpdate)
                + " FROM repl_changed LEFT JOIN repl_lock ON " + join
                // A failing cast of a row-dependent value: a constant one would fail when planned.
                + " WHERE NOT repl_changed.repl_inserted AND CAST(CASE WHEN repl_lock."
                + oldAlias.get(conflictColumns.get(0)) + " IS NULL THEN " + literal(CONCURRENT_INSERT)
                + " ELSE '0' END AS integer) = 0";
        String logInsert = logInsert(inserted + " UNION ALL " + updatedRows);
        return result(dml, table, selectItems, sql, logInsert, true);
    }

    /**
     * The conflict target's columns: as listed, or those of the constraint ON CONSTRAINT names (the
     * statement keeps naming the constraint, so PostgreSQL still picks the same arbiter).
     */
    private static List<String> conflictColumns(OnConflict conflict, TableInfo table) throws SQLException {
        if (conflict.constraint() == null) return conflict.targetColumns().stream().map(c -> stored(table, c)).toList();
        String name = DIALECT.fold(conflict.constraint());
        List<String> columns = table.constraintColumns(name);
        if (columns == null) {
            // PostgreSQL's own error, before anything runs.
            throw SqlState.UNDEFINED_OBJECT.exception("constraint \"" + name + "\" for table \"" + table.name() + "\" does not exist");
        }
        return columns;
    }

    /** The setting through which an upsert that assigns a conflict column tells RETURNING the old row's. */
    static final String OLD_KEY_SETTING = "jdbc_repl.upsert_old_key";

    /** In the message of the error an upsert raises when a concurrent insert got in: run it again. */
    public static final String CONCURRENT_INSERT = "jdbc:repl: a concurrent insert got in first, run again";

    private String logSelect(String command, TableInfo table, String oldJson, String newJson, LoggedColumns logged) {
        String vector = logged.changeVector().isEmpty() ? "NULL::json"
                : literal(Json.write(logged.changeVector())) + "::json";
        if (positionSequence == null) {
            return "SELECT " + literal(node) + ", " + literal(command) + ", " + literal(table.schema()) + ", "
                    + literal(table.name()) + ", " + oldJson + ", " + newJson + ", " + literal(typesJson(table, logged))
                    + "::json, " + (logged.changeVector().isEmpty() ? "NULL" : vector);
        }
        // Signed: the defaults (position, tx_id) made explicit, so that the signature can cover them.
        return "SELECT nextval(" + literal(positionSequence) + "::regclass) AS position, pg_current_xact_id() AS tx_id, "
                + literal(node) + "::text AS source_node, " + literal(command) + "::text AS command_type, "
                + literal(table.schema()) + "::text AS schema_name, " + literal(table.name()) + "::text AS table_name, "
                + typed(oldJson) + " AS old_values, " + typed(newJson) + " AS new_values, "
                + literal(typesJson(table, logged)) + "::json AS column_types, " + vector + " AS change_vector";
    }

    private static String typed(String json) {
        return json.equals("NULL") ? "NULL::json" : json;
    }

    /**
     * The INSERT into the change log of {@code select}'s rows. Signed, each row gets the HMAC-SHA-256
     * of io.jdbcrepl.log.LogSignature's canonical message, computed here with PostgreSQL's
     * sha256(): HMAC(K, m) = sha256(outer pad || sha256(inner pad || m)). OFFSET 0 keeps the rows a
     * subquery of their own, so nextval runs once a row and the images are built once.
     */
    private String logInsert(String select) {
        if (positionSequence == null) return "INSERT INTO " + logTable + " (" + LOG_COLUMNS + ") " + select;
        String message = "'\\x" + java.util.HexFormat.of().formatHex(SignedLcr.MESSAGE_PREFIX
                .getBytes(java.nio.charset.StandardCharsets.UTF_8)) + "'::bytea";
        StringBuilder m = new StringBuilder(message);
        for (String field : new String[] {"repl_s.position::text", "repl_s.tx_id::text", "repl_s.source_node",
                "repl_s.command_type", "repl_s.schema_name", "repl_s.table_name", "repl_s.column_types::text",
                "repl_s.change_vector::text", "repl_s.old_values::text", "repl_s.new_values::text"}) {
            m.append(" || coalesce(int4send(octet_length(convert_to(").append(field).append(", 'UTF8'))) || convert_to(")
                    .append(field).append(", 'UTF8'), '\\xffffffff'::bytea)");
        }
        return "INSERT INTO " + logTable + " (position, tx_id, " + LOG_COLUMNS + ", signature) SELECT repl_s.*, sha256("
                + pad(OUTER_PAD_SETTING) + " || sha256(" + pad(INNER_PAD_SETTING) + " || " + m + ")) FROM (" + select
                + " OFFSET 0) AS repl_s";
    }

    /**
     * A pad from its session setting; a setting emptied since (RESET ALL, DISCARD ALL) fails the
     * statement rather than sign with no key (a cast of a row-independent but non-constant text, so
     * that it is not evaluated when planned).
     */
    private static String pad(String setting) {
        String value = "current_setting(" + literal(setting) + ")";
        return "decode(CASE WHEN " + value + " <> '' THEN " + value + " ELSE CAST(" + value + " || "
                + literal("jdbc:repl: repl.log.key is no longer set on this connection (RESET ALL or DISCARD ALL ran):"
                        + " open a new connection") + " AS integer)::text END, 'hex')";
    }

    private static final String LOG_COLUMNS = "source_node, command_type, schema_name, table_name, old_values,"
            + " new_values, column_types, change_vector";

    private static String valuesWithTimestamp(InsertSource.Values values, int at) {
        StringBuilder source = new StringBuilder("VALUES ");
        for (int r = 0; r < values.rows().size(); r++) {
            List<SqlFragment> row = values.rows().get(r);
            if (r > 0) source.append(", ");
            source.append('(');
            for (int i = 0; i < row.size(); i++) {
                if (i > 0) source.append(", ");
                source.append(i == at ? overriding(row.get(i).text(), clock()) : row.get(i).text());
            }
            if (at < 0) source.append(", ").append(clock());
            source.append(')');
        }
        return source.toString();
    }

    /** The query with its output's column {@code at} replaced by the clock, or the clock appended. */
    private static String queryWithTimestamp(String query, List<String> columns, int at) {
        StringBuilder names = new StringBuilder();
        StringBuilder select = new StringBuilder();
        for (int i = 0; i < columns.size(); i++) {
            if (i > 0) {
                names.append(", ");
                select.append(", ");
            }
            names.append("repl_c").append(i + 1);
            select.append(i == at ? clock() : "repl_q.repl_c" + (i + 1));
        }
        if (at < 0) select.append(", ").append(clock());
        return "SELECT " + select + " FROM (" + query + ") AS repl_q(" + names + ")";
    }

    private static String qualifiedList(String relation, List<String> columns) {
        StringBuilder out = new StringBuilder();
        for (String c : columns) {
            if (out.length() > 0) out.append(", ");
            out.append(relation).append('.').append(quote(c));
        }
        return out.toString();
    }

    // ---- UPDATE

    private CapturePlan update(Dml dml, TableInfo table, CaptureSettings settings, List<String> selectItems) throws CaptureException {
        List<String> assigned = new ArrayList<>();
        for (Assignment a : dml.assignments()) assigned.add(stored(table, a.column()));
        LoggedColumns logged = LoggedColumns.forUpdate(table, assigned, settings);
        String ref = reference(dml);
        String ts = settings.timestampColumn() == null ? null : table.storedName(settings.timestampColumn());

        Map<String, String> oldAlias = new LinkedHashMap<>();
        for (int i = 0; i < logged.oldColumns().size(); i++) oldAlias.put(logged.oldColumns().get(i), "repl_o" + (i + 1));

        StringBuilder set = new StringBuilder();
        for (int i = 0; i < dml.assignments().size(); i++) {
            Assignment a = dml.assignments().get(i);
            if (i > 0) set.append(", ");
            String column = stored(table, a.column());
            String value = column.equals(ts) ? overriding(a.value().text(), nextTimestamp(oldAlias.get(ts)))
                    : a.value().text();
            set.append(quote(column)).append(" = ").append(value);
        }
        if (ts != null && !assigned.contains(ts)) {
            set.append(", ").append(quote(ts)).append(" = ").append(nextTimestamp(oldAlias.get(ts)));
        }

        StringBuilder locked = new StringBuilder("SELECT ");
        boolean first = true;
        for (Map.Entry<String, String> e : oldAlias.entrySet()) {
            if (!first) locked.append(", ");
            first = false;
            locked.append(ref).append('.').append(quote(e.getKey())).append(" AS ").append(e.getValue());
        }
        // UPDATE ... FROM: the other relations' rows travel whole, for SET and RETURNING to read.
        for (int i = 0; i < dml.fromRelations().size(); i++) {
            locked.append(", ").append(wholeRow(dml.fromRelations().get(i))).append(" AS ").append(relationColumn(i));
        }
        // Without a key, identical rows are told apart by where they are (ctid), so that the UPDATE
        // changes exactly the rows the locking read found.
        if (table.keyless()) locked.append(", ").append(ref).append(".ctid AS repl_ctid");
        locked.append(" FROM ").append(only(dml)).append(dml.target().sqlText());
        if (dml.target().alias() != null) locked.append(" AS ").append(ref);
        if (!dml.fromRelations().isEmpty()) locked.append(", ").append(dml.from().text());
        if (dml.where() != null) locked.append(" WHERE ").append(dml.where().text());
        locked.append(' ').append(lockClause(table, assigned, ts)).append(" OF ").append(ref);

        StringBuilder change = new StringBuilder("UPDATE ").append(only(dml)).append(dml.target().sqlText());
        if (dml.target().alias() != null) change.append(" AS ").append(ref);
        change.append(" SET ").append(set).append(" FROM (").append(locked).append(") AS repl_old")
                .append(relationsOf(dml, "repl_old")).append(" WHERE ");
        if (table.keyless()) {
            change.append(ref).append(".ctid = repl_old.repl_ctid");
        } else {
            for (int i = 0; i < table.key().size(); i++) {
                String k = table.key().get(i);
                if (i > 0) change.append(" AND ");
                change.append(ref).append('.').append(quote(k)).append(" = repl_old.").append(oldAlias.get(k));
            }
        }
        change.append(" RETURNING ");
        if (selectItems == null && dml.returning().isEmpty()) {
            // Only what the log needs: returning the whole row costs a copy of every column of
            // every changed row into the CTE's tuple store (a fifth of the statement's time on a
            // single-row update of a table with a wide column).
            StringBuilder items = new StringBuilder();
            for (String c : logged.newColumns()) items.append(ref).append('.').append(quote(c)).append(", ");
            for (String alias : oldAlias.values()) items.append("repl_old.").append(alias).append(", ");
            change.append(items, 0, items.length() - 2);
        } else {
            change.append(ref).append(".*, repl_old.*");
        }

        String oldJson = jsonObject(table, logged.oldColumns(), changed, oldAlias::get);
        String newJson = jsonObject(table, logged.newColumns(), changed, name -> name);
        return finish(dml, table, selectItems, change.toString(), oldJson, newJson, logged);
    }

    /**
     * The row lock the UPDATE (or ON CONFLICT DO UPDATE) itself takes: {@code FOR UPDATE} only when
     * it may change a key column ({@code assigned}, or the driver's timestamp column {@code ts}). A
     * stronger lock would also block other transactions' foreign-key checks on the row.
     */
    private static String lockClause(TableInfo table, List<String> assigned, String ts) {
        boolean key = assigned.stream().anyMatch(table::mayBeLockKey) || (ts != null && table.mayBeLockKey(ts));
        return key ? "FOR UPDATE" : "FOR NO KEY UPDATE";
    }

    // ---- DELETE

    private CapturePlan delete(Dml dml, TableInfo table, List<String> selectItems) {
        String ref = reference(dml);
        StringBuilder change = new StringBuilder("DELETE FROM ").append(only(dml)).append(dml.target().sqlText());
        if (dml.target().alias() != null) change.append(" AS ").append(ref);
        if (!dml.fromRelations().isEmpty()) change.append(" USING ").append(dml.from().text());
        if (dml.where() != null) change.append(" WHERE ").append(dml.where().text());
        change.append(" RETURNING ").append(ref).append(".*");
        for (int i = 0; i < dml.fromRelations().size(); i++) {
            change.append(", ").append(wholeRow(dml.fromRelations().get(i))).append(" AS ").append(relationColumn(i));
        }
        LoggedColumns logged = LoggedColumns.forDelete(table);
        String json = jsonObject(table, logged.oldColumns(), changed, name -> name);
        return finish(dml, table, selectItems, change.toString(), json, "NULL", logged);
    }

    // ---- the log insert and the statement's result

    /** {@code selectItems}: the final SELECT for generated keys, else null. */
    private CapturePlan finish(Dml dml, TableInfo table, List<String> selectItems, String change, String oldJson, String newJson,
            LoggedColumns logged) {
        String logInsert = logInsert(logSelect(dml.command().name(), table, oldJson, newJson, logged) + " FROM " + changed
                + (loggedBefore == null ? "" : " WHERE (SELECT count(*) FROM " + loggedBefore + ") >= 0"));
        StringBuilder sql = new StringBuilder("WITH ").append(changed).append(" AS (").append(change).append(") ");
        return result(dml, table, selectItems, sql, logInsert, false);
    }

    /** Ends the statement: the log insert, or it as a CTE and a SELECT of RETURNING items or generated keys. */
    private CapturePlan result(Dml dml, TableInfo table, List<String> selectItems, StringBuilder sql, String logInsert,
            boolean retries) {
        if (withQuery != null) return asWithQuery(dml, table, sql, logInsert);
        if (selectItems != null) {
            sql.append(", ").append(logged).append(" AS (").append(logInsert).append(") SELECT ")
                    .append(String.join(", ", selectItems)).append(" FROM ").append(changed).append(" AS ").append(reference(dml));
            return new CapturePlan(sql.toString(), CapturePlan.Result.ROWS, dml.parameterCount(), retries);
        }
        if (dml.returning().isEmpty()) {
            sql.append(logInsert);
            return new CapturePlan(sql.toString(), CapturePlan.Result.UPDATE_COUNT, dml.parameterCount(), retries);
        }
        sql.append(", ").append(logged).append(" AS (").append(logInsert).append(") ").append(returningSelect(dml, table));
        return new CapturePlan(sql.toString(), CapturePlan.Result.ROWS, dml.parameterCount(), retries);
    }

    /** The SELECT of the statement's own RETURNING items from the changed rows. */
    private String returningSelect(Dml dml, TableInfo table) {
        List<String> items = new ArrayList<>();
        for (SqlFragment item : dml.returning()) {
            String text = item.text().trim();
            if (text.equals("*") || text.equalsIgnoreCase(reference(dml) + ".*")) {
                for (ColumnInfo c : table.columns()) items.add(reference(dml) + "." + quote(c.name()));
                // PostgreSQL's * also spans the FROM / USING relations, in order.
                if (text.equals("*")) for (FromRelation r : dml.fromRelations()) items.add(r.name() + ".*");
            } else {
                items.add(item.text());
            }
        }
        return "SELECT " + String.join(", ", items) + " FROM " + changed + " AS " + reference(dml)
                + relationsOf(dml, reference(dml));
    }

    /**
     * A relation's whole row. A table's as {@code coalesce(u.*)}: a bare {@code u} would be the
     * target's column if it has one so named. A subquery's row type has no name, which coalesce
     * would lose: it stays {@code u} (a clash with a target column then fails as "not composite").
     */
    private static String wholeRow(FromRelation relation) {
        return relation.table() ? "coalesce(" + relation.name() + ".*)" : relation.name();
    }

    /** The column that carries the whole row of the FROM / USING list's relation {@code i}. */
    private static String relationColumn(int i) {
        return "repl_r" + (i + 1);
    }

    /**
     * The FROM / USING list's relations again, under their own names, from the whole rows that
     * {@code carrier} holds: {@code CROSS JOIN LATERAL (SELECT (carrier.repl_r1).*) AS u}, so that
     * SET and RETURNING expressions read {@code u.x} as the application wrote them.
     */
    private static String relationsOf(Dml dml, String carrier) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < dml.fromRelations().size(); i++) {
            out.append(" CROSS JOIN LATERAL (SELECT (").append(carrier).append('.').append(relationColumn(i))
                    .append(").*) AS ").append(dml.fromRelations().get(i).name());
        }
        return out.toString();
    }

    private static String typesJson(TableInfo table, LoggedColumns logged) {
        Map<String, Object> types = new LinkedHashMap<>();
        for (ColumnInfo c : table.columns()) {
            if (logged.oldColumns().contains(c.name()) || logged.newColumns().contains(c.name())) {
                types.put(c.name(), c.type().logName());
            }
        }
        return Json.write(types);
    }

    /** {@code json_build_object('col', <expr>, …)}, in calls of 50 columns joined as text. */
    private static String jsonObject(TableInfo table, List<String> columns, String relation,
            java.util.function.Function<String, String> outputName) {
        if (columns.isEmpty()) return "NULL";
        List<String> calls = new ArrayList<>();
        for (int start = 0; start < columns.size(); start += COLUMNS_PER_CALL) {
            StringBuilder call = new StringBuilder("json_build_object(");
            List<String> chunk = columns.subList(start, Math.min(columns.size(), start + COLUMNS_PER_CALL));
            for (int i = 0; i < chunk.size(); i++) {
                String column = chunk.get(i);
                if (i > 0) call.append(", ");
                ColumnInfo info = table.column(column).orElseThrow();
                String value = relation + "." + quote(outputName.apply(column));
                call.append(literal(column)).append(", ").append(jsonValue(info, value));
            }
            calls.add(call.append(')').toString());
        }
        if (calls.size() == 1) return calls.get(0);
        // Joined as text, so that the columns keep their table order (jsonb would sort them).
        StringBuilder joined = new StringBuilder("(");
        for (int i = 0; i < calls.size(); i++) {
            String text = calls.get(i) + "::text";
            if (i > 0) joined.append(" || ',' || ");
            if (i == 0) joined.append("rtrim(").append(text).append(", '}')");
            else if (i == calls.size() - 1) joined.append("ltrim(").append(text).append(", '{')");
            else joined.append("btrim(").append(text).append(", '{}')");
        }
        return joined.append(")::json").toString();
    }

    /** The expression whose JSON is the value's change-log form (see {@link ValueType}). */
    private static String jsonValue(ColumnInfo column, String value) {
        return switch (column.type()) {
            case BINARY -> "translate(encode(" + value + ", 'base64'), E'\\n', '')";
            // The object's bytes, read now: its number names nothing on a peer.
            case LARGE_OBJECT -> "translate(encode(" + LargeObjects.content(value) + ", 'base64'), E'\\n', '')";
            // As text: JSON numbers have no negative zero; a real is widened as JDBC reads it.
            case FLOAT -> "(" + value + "::float8)::text";
            // Character types as they are (char(n) keeps its padding); others (arrays, enums,
            // intervals, json) as their text, not as structured JSON.
            case STRING -> CHARACTER_TYPES.contains(column.typeName().toLowerCase(java.util.Locale.ROOT))
                    ? value : value + "::text";
            case JSON -> value + "::text";
            default -> value;
        };
    }

    // ---- the resolution timestamp (SPEC 5.6)

    private static String clock() {
        return "clock_timestamp()";
    }

    /** Now, or the old value plus a microsecond when a peer's clock ran ahead of ours. */
    private static String nextTimestamp(String oldAlias) {
        return nextTimestampFrom("repl_old." + oldAlias);
    }

    private static String nextTimestampFrom(String old) {
        return "CASE WHEN " + old + " IS NULL OR " + old + " < clock_timestamp() THEN clock_timestamp() ELSE "
                + old + " + interval '1 microsecond' END";
    }

    /** The driver's value replaces the application's; the application's expression is still evaluated (its parameters stay bound in order). */
    private static String overriding(String applicationValue, String driverValue) {
        if (applicationValue.trim().equalsIgnoreCase("DEFAULT")) return driverValue;
        return "CASE WHEN (" + applicationValue + ") IS NULL THEN " + driverValue + " ELSE " + driverValue + " END";
    }

    // ---- SQL text

    private static String only(Dml dml) {
        return dml.only() ? "ONLY " : "";
    }

    /** What the statement's clauses call the target: its alias, else its name as written. */
    private static String reference(Dml dml) {
        if (dml.target().alias() != null) return quoteIfNeeded(dml.target().alias());
        return dml.target().nameQuoted() ? quote(dml.target().name()) : dml.target().name();
    }

    private static String stored(TableInfo table, ColumnRef column) {
        return table.storedName(DIALECT.fold(column.name(), column.quoted()));
    }

    private static String quotedList(List<String> columns) {
        StringBuilder out = new StringBuilder();
        for (String c : columns) {
            if (out.length() > 0) out.append(", ");
            out.append(quote(c));
        }
        return out.toString();
    }

    static String quote(String identifier) {
        return '"' + identifier.replace("\"", "\"\"") + '"';
    }

    private static String quoteIfNeeded(String identifier) {
        return identifier.matches("[a-z_][a-z0-9_$]*") ? identifier : quote(identifier);
    }

    static String literal(String value) {
        return value == null ? "NULL" : "'" + value.replace("'", "''") + "'";
    }
}
