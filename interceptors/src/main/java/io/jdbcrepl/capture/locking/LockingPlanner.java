package io.jdbcrepl.capture.locking;

import io.jdbcrepl.capture.CaptureException;
import io.jdbcrepl.capture.CaptureSettings;
import io.jdbcrepl.capture.ColumnInfo;
import io.jdbcrepl.capture.LoggedColumns;
import io.jdbcrepl.capture.TableInfo;
import io.jdbcrepl.sql.Assignment;
import io.jdbcrepl.sql.ColumnRef;
import io.jdbcrepl.sql.Dml;
import io.jdbcrepl.sql.InsertSource;
import io.jdbcrepl.sql.SqlFragment;
import io.jdbcrepl.dialect.Dialect;
import io.jdbcrepl.lcr.CommandType;
import io.jdbcrepl.lcr.ValueType;

import java.util.ArrayList;
import java.util.List;

/** Plans the capture of one INSERT, UPDATE or DELETE on MariaDB or H2 (see {@link LockingPlan}). */
public final class LockingPlanner {

    /** Rows per page of a paged locking read, and per restricted UPDATE. */
    public static final int DEFAULT_PAGE_SIZE = 1000;

    private final Dialect dialect;
    /** What differs per database: the dialect's part. */
    private final LockingSql locking;
    private final int pageSize;

    public LockingPlanner(Dialect dialect) {
        this(dialect, DEFAULT_PAGE_SIZE);
    }

    public LockingPlanner(Dialect dialect, int pageSize) {
        this.dialect = dialect;
        this.locking = dialect.part(LockingSql.class);
        this.pageSize = pageSize;
    }

    public LockingPlan plan(Dml dml, TableInfo table, CaptureSettings settings) throws CaptureException {
        if (!dml.returning().isEmpty() && (!locking.returning() && dml.delta() == null
                || dml.command() == CommandType.UPDATE || dml.onDuplicateKeyUpdate() != null)) {
            throw unsupported(dml, table, "its own RETURNING clause", "run the statement without RETURNING and read"
                    + " the rows in a separate query");
        }
        if (dml.from() != null && !dml.from().text().isBlank()) {
            throw unsupported(dml, table, "a second table (FROM/USING)", "use a subquery in the WHERE clause");
        }
        return switch (dml.command()) {
            case INSERT -> insert(dml, table, settings);
            case UPDATE -> update(dml, table, settings);
            case DELETE -> delete(dml, table);
            case DDL -> throw new IllegalArgumentException("DDL is not a row change");
        };
    }

    // ---- INSERT and DELETE: one statement that returns the rows

    private LockingPlan insert(Dml dml, TableInfo table, CaptureSettings settings) throws CaptureException {
        if (dml.onDuplicateKeyUpdate() != null) return upsert(dml, table, settings);
        if (dml.ignore() && !locking.ignore()) {
            throw unsupported(dml, table, "INSERT IGNORE", "insert the rows that do not exist yet with INSERT … SELECT … WHERE NOT EXISTS");
        }
        String ts = settings.timestampColumn() == null ? null : table.storedName(settings.timestampColumn());
        List<String> targetColumns = new ArrayList<>(insertColumns(dml, table));
        PlannedSql insert;
        if (ts == null) {
            insert = new PlannedSql(stripEnd(dml.sql()), allParameters(dml));
        } else {
            insert = insertWithTimestamp(dml, table, targetColumns, table.column(ts).orElseThrow());
            if (!targetColumns.contains(ts)) targetColumns.add(ts);
        }
        LoggedColumns logged = LoggedColumns.forInsert(table, targetColumns, settings);
        if (!dml.returning().isEmpty()) {
            if (ts != null) {
                throw unsupported(dml, table, "its own RETURNING together with repl.timestamp." + table.name(),
                        "run the statement without RETURNING and read the rows in a separate query");
            }
            return ownReturning(dml, table, CommandType.INSERT, logged);
        }
        return returning(table, CommandType.INSERT, logged, insert, "FINAL");
    }

    /** MariaDB {@code INSERT … ON DUPLICATE KEY UPDATE}: see {@link UpsertPlan}. */
    private UpsertPlan upsert(Dml dml, TableInfo table, CaptureSettings settings) throws CaptureException {
        if (!locking.onDuplicateKeyUpdate()) {
            throw unsupported(dml, table, "ON DUPLICATE KEY UPDATE", "write it as an UPDATE followed by"
                    + " INSERT … SELECT … WHERE NOT EXISTS");
        }
        String text = stripEnd(dml.sql());
        String clause = dml.onDuplicateKeyUpdate().clause().text();
        int at = text.lastIndexOf(clause);
        if (clause.isBlank() || at < 0 || !text.substring(0, at).matches("(?is).*\\bUPDATE\\s*")) {
            throw new CaptureException("INSERT on " + table.qualifiedName() + ": the ON DUPLICATE KEY UPDATE list"
                    + " could not be located in the statement");
        }
        List<String> assigned = new ArrayList<>();
        for (Assignment a : dml.onDuplicateKeyUpdate().assignments()) assigned.add(stored(table, a.column()));
        LoggedColumns inserted = LoggedColumns.forInsert(table, insertColumns(dml, table), settings);
        LoggedColumns updated = LoggedColumns.forUpdate(table, assigned, settings);
        List<String> columns = table.columns().stream().map(ColumnInfo::name).toList();
        // The first assignment, evaluated before the application's on the row as it was: a column set to itself.
        String self = reference(dml) + "." + dialect.quote(table.columns().stream().filter(c -> !c.generated()).findFirst().orElseThrow().name());
        String ref = reference(dml);
        StringBuilder marker = new StringBuilder(self).append(" = IF(ISNULL(@repl_n := @repl_n + 1)");
        StringBuilder reset = new StringBuilder("SET @repl_n = 0");
        StringBuilder returning = new StringBuilder("\nRETURNING ").append(quotedList(columns)).append(", @repl_n");
        for (int i = 0; i < updated.oldColumns().size(); i++) {
            ColumnInfo c = table.column(updated.oldColumns().get(i)).orElseThrow();
            String var = "@repl_o" + (i + 1);
            String value = ref + "." + dialect.quote(c.name());
            marker.append(" + ISNULL(").append(var).append(" := ").append(copied(c, value)).append(")");
            reset.append(", ").append(var).append(" = ").append(typedNull(c));
            returning.append(", ").append(oldValue(c, var));
        }
        marker.append(" >= 0, ").append(self).append(", ").append(self).append("), ");
        PlannedSql statement;
        if (settings.timestampColumn() == null) {
            statement = new PlannedSql(text.substring(0, at) + marker + text.substring(at) + returning, allParameters(dml));
        } else {
            statement = upsertWithTimestamp(dml, table, assigned, ref, table.column(table.storedName(
                    settings.timestampColumn())).orElseThrow(), marker + returning.toString());
        }
        return new UpsertPlan(table, inserted, LogRowShape.of(CommandType.INSERT, table, inserted, dialect), updated,
                LogRowShape.of(CommandType.UPDATE, table, updated, dialect), columns, upsertBlock(reset, statement, false),
                upsertBlock(reset, statement, true));
    }

    /**
     * The upsert rebuilt so that an inserted row's timestamp column gets now and an updated row's
     * the next timestamp (SPEC 5.6), keeping the parameters in order; {@code markerAndReturning} is
     * split at the RETURNING: the first assignment, then what follows the update list.
     */
    private PlannedSql upsertWithTimestamp(Dml dml, TableInfo table, List<String> assigned, String ref, ColumnInfo ts,
            String markerAndReturning) throws CaptureException {
        List<String> columns = new ArrayList<>(insertColumns(dml, table));
        int split = markerAndReturning.indexOf("\nRETURNING ");
        SqlBuilder sql = new SqlBuilder().append(insertWithTimestamp(dml, table, columns, ts))
                .sql(" ON DUPLICATE KEY UPDATE ").sql(markerAndReturning.substring(0, split));
        String next = nextTimestamp(locking, ts, ref + "." + dialect.quote(ts.name()));
        List<Assignment> assignments = dml.onDuplicateKeyUpdate().assignments();
        for (int i = 0; i < assignments.size(); i++) {
            sql.sql(i > 0 ? ", " : "").sql(dialect.quote(assigned.get(i)) + " = ");
            if (assigned.get(i).equals(ts.name())) overriding(sql, assignments.get(i).value(), next);
            else sql.fragment(assignments.get(i).value());
        }
        // Last: MySQL evaluates the list left to right, and this reads the old timestamp.
        if (!assigned.contains(ts.name())) sql.sql(", " + dialect.quote(ts.name()) + " = " + next);
        return sql.sql(markerAndReturning.substring(split)).build();
    }

    /** The upsert after its variables are reset, in one compound statement (prepared on the client: see oneRowBlock). */
    private static PlannedSql upsertBlock(CharSequence reset, PlannedSql statement, boolean begin) {
        return new SqlBuilder().sql("/*client prepare*/BEGIN NOT ATOMIC\n").sql(begin ? "START TRANSACTION;\n" : "")
                .sql(reset + ";\n").append(statement).sql(";\nEND").build();
    }

    /**
     * What the variable keeps of an old value: BIT as a number (not a binary string), text as utf8mb4,
     * a decimal as its text
     * whatever the column's character set (the variable is read back as utf8mb4, see {@link #oldValue}).
     */
    private static String copied(ColumnInfo c, String value) {
        return switch (c.type()) {
            case BOOLEAN -> "(" + value + " + 0)";
            case STRING, JSON, UUID_ -> "CONVERT(" + value + " USING utf8mb4)";
            case DECIMAL -> "CAST(" + value + " AS CHAR)"; // with the column's scale
            default -> value;
        };
    }

    /**
     * NULL of the family of types the variable will hold: a statement reads a variable with the type
     * it had when the statement began (an INT left by an earlier upsert would read a date as 2026).
     */
    private static String typedNull(ColumnInfo c) {
        boolean unsigned = c.typeName() != null && c.typeName().toUpperCase(java.util.Locale.ROOT).contains("UNSIGNED");
        return switch (c.type()) {
            case INTEGER, BOOLEAN -> unsigned ? "CAST(NULL AS UNSIGNED)" : "CAST(NULL AS SIGNED)";
            case FLOAT -> "CAST(NULL AS DOUBLE)";
            case BINARY -> "CAST(NULL AS BINARY)";
            default -> "CAST(NULL AS CHAR CHARACTER SET utf8mb4)";
        };
    }

    /** A copied old value, read back with the column's type (user variables keep only a family of types). */
    private static String oldValue(ColumnInfo c, String var) {
        boolean unsigned = c.typeName() != null && c.typeName().toUpperCase(java.util.Locale.ROOT).contains("UNSIGNED");
        return switch (c.type()) {
            case INTEGER, BOOLEAN -> "CAST(" + var + (unsigned ? " AS UNSIGNED)" : " AS SIGNED)");
            case FLOAT -> "CAST(" + var + " AS DOUBLE)";
            case DATE -> "CAST(" + var + " AS DATE)";
            case TIME -> "CAST(" + var + " AS TIME(6))";
            case TIMESTAMP, TIMESTAMPTZ -> "CAST(" + var + " AS DATETIME(6))";
            case BINARY, LARGE_OBJECT -> "CAST(" + var + " AS BINARY)"; // LARGE_OBJECT: PostgreSQL only
            case DECIMAL, STRING, JSON, UUID_ -> "CAST(" + var + " AS CHAR CHARACTER SET utf8mb4)"; // a decimal as its exact text
        };
    }

    private ReturningPlan delete(Dml dml, TableInfo table) throws CaptureException {
        if (!dml.returning().isEmpty()) return ownReturning(dml, table, CommandType.DELETE, LoggedColumns.forDelete(table));
        PlannedSql delete = new PlannedSql(stripEnd(dml.sql()), allParameters(dml));
        ReturningPlan whole = returning(table, CommandType.DELETE, LoggedColumns.forDelete(table), delete, "OLD");
        // MariaDB: DELETE x FROM t x (the only way to alias it before 11.6) is multi-table syntax, which
        // takes no RETURNING: its rows are read under the alias and deleted by key like H2's below.
        boolean multiTableAlias = locking.returning() && dml.target().alias() != null;
        if (multiTableAlias && table.keyless()) {
            // its rows are deleted with the application's WHERE, which names the alias DELETE FROM t cannot have
            throw unsupported(dml, table, "an alias on a table without a key (DELETE x FROM t x)", "write DELETE FROM t"
                    + " without the alias");
        }
        if (multiTableAlias && dml.ignore()) {
            throw unsupported(dml, table, "IGNORE and an alias (DELETE IGNORE x FROM t x)", "write DELETE IGNORE FROM t"
                    + " without the alias");
        }
        // MariaDB: one DELETE … RETURNING, whose rows the driver reads as they come (bounded memory)
        if (locking.returning() && !multiTableAlias || dml.ignore()) return whole; // (H2 has no DELETE IGNORE: its error)
        // H2: a delta table's rows past MAX_MEMORY_ROWS can be lost (see ReturningPlan.Keyed)
        String ref = reference(dml);
        String target = dml.target().sqlText() + (dml.target().alias() != null ? " AS " + ref : "");
        SqlBuilder head = new SqlBuilder().sql("SELECT ").sql(String.join(", ", table.columns().stream()
                .map(c -> ref + "." + dialect.quote(c.name())).toList())).sql(" FROM ").sql(target);
        String deleteTarget = multiTableAlias ? dml.target().sqlText() : target;
        String deleteRef = multiTableAlias ? dialect.quote(dml.target().foldedName(dialect)) : ref;
        PlannedSql prefix = new SqlBuilder().sql("DELETE FROM ").sql(deleteTarget).sql(" WHERE ").build();
        return whole.withKeyed(new ReturningPlan.Keyed(pageSize, lockingRead(dml, head.build(), ref, table.key(), false, false),
                prefix, table, deleteRef, dialect, keylessFilter(dml, table)));
    }

    /**
     * INSERT or DELETE with a result of the application's, its RETURNING (MariaDB) or the query over
     * its delta table (H2): the application's items, then every column (which the driver reads and hides).
     */
    private ReturningPlan ownReturning(Dml dml, TableInfo table, CommandType command, LoggedColumns logged) {
        List<String> columns = table.columns().stream().map(ColumnInfo::name).toList();
        int items = 0;
        List<String> texts = new ArrayList<>();
        for (SqlFragment item : dml.returning()) {
            items += item.text().trim().endsWith("*") ? columns.size() : 1;
            texts.add(item.text());
        }
        // A new line ends a trailing -- comment of the application's text.
        String text = dml.delta() == null ? stripEnd(dml.sql()) + "\n, " + quotedList(columns)
                : "SELECT " + String.join(", ", texts) + ", " + quotedList(columns) + " FROM " + dml.delta().kind()
                        + " TABLE (" + stripEnd(dml.sql()) + "\n)" + (dml.delta().alias().isEmpty() ? "" : " " + dml.delta().alias());
        PlannedSql sql = new PlannedSql(text, allParameters(dml));
        return new ReturningPlan(table, command, logged, LogRowShape.of(command, table, logged, dialect), sql, columns, null, items);
    }

    private ReturningPlan returning(TableInfo table, CommandType command, LoggedColumns logged, PlannedSql change,
            String deltaTable) {
        List<String> columns = table.columns().stream().map(ColumnInfo::name).toList();
        SqlBuilder sql = new SqlBuilder();
        if (locking.returning()) {
            sql.append(change).sql(returningClause(table));
        } else {
            sql.sql("SELECT ").sql(quotedList(columns)).sql(" FROM " + deltaTable + " TABLE (")
                    .append(change).sql("\n)");
        }
        return new ReturningPlan(table, command, logged, LogRowShape.of(command, table, logged, dialect), sql.build(), columns);
    }

    /** MariaDB: {@code RETURNING} every column of the table (after a new line, which ends a trailing -- comment of the application's text). */
    private String returningClause(TableInfo table) {
        return "\nRETURNING " + quotedList(table.columns().stream().map(ColumnInfo::name).toList());
    }

    /** The INSERT rebuilt so that the timestamp column gets now (SPEC 5.6), keeping the parameters in order. */
    private PlannedSql insertWithTimestamp(Dml dml, TableInfo table, List<String> columns, ColumnInfo ts)
            throws CaptureException {
        SqlBuilder sql = new SqlBuilder().sql("INSERT ").sql(dml.ignore() ? "IGNORE " : "").sql("INTO ")
                .sql(dml.target().sqlText());
        int at = columns.indexOf(ts.name());
        List<String> target = new ArrayList<>(columns);
        if (at < 0) target.add(ts.name());
        sql.sql(" (").sql(quotedList(target)).sql(") VALUES ");
        if (dml.insertSource() instanceof InsertSource.Values values) {
            for (int r = 0; r < values.rows().size(); r++) {
                List<SqlFragment> row = values.rows().get(r);
                sql.sql(r > 0 ? ", (" : "(");
                for (int i = 0; i < row.size(); i++) {
                    if (i > 0) sql.sql(", ");
                    if (i == at) overriding(sql, row.get(i), locking.now(ts));
                    else sql.fragment(row.get(i));
                }
                if (at < 0) sql.sql(row.isEmpty() ? "" : ", ").sql(locking.now(ts));
                sql.sql(")");
            }
        } else if (dml.insertSource() instanceof InsertSource.DefaultValues) {
            sql.sql("(").sql(locking.now(ts)).sql(")");
        } else {
            throw unsupported(dml, table, "INSERT … SELECT together with repl.timestamp." + table.name(),
                    "insert with VALUES, or set the timestamp column in a following UPDATE");
        }
        return sql.build();
    }

    /** The columns an INSERT names, or the first columns of the table for one that names none. */
    private List<String> insertColumns(Dml dml, TableInfo table) throws CaptureException {
        if (!dml.assignedColumns().isEmpty()) return dml.assignedColumns().stream().map(c -> stored(table, c)).toList();
        if (dml.insertSource() instanceof InsertSource.Values values) {
            int arity = values.rows().get(0).size();
            if (arity > table.columns().size()) {
                throw new CaptureException("INSERT into " + table.qualifiedName() + " gives " + arity + " values for "
                        + table.columns().size() + " columns");
            }
            return table.columns().subList(0, arity).stream().map(ColumnInfo::name).toList();
        }
        if (dml.insertSource() instanceof InsertSource.Query) {
            return table.columns().stream().filter(c -> !c.generated()).map(ColumnInfo::name).toList();
        }
        return List.of();
    }

    // ---- UPDATE

    private UpdatePlan update(Dml dml, TableInfo table, CaptureSettings settings) throws CaptureException {
        List<String> assigned = new ArrayList<>();
        for (Assignment a : dml.assignments()) assigned.add(stored(table, a.column()));
        LoggedColumns logged = LoggedColumns.forUpdate(table, assigned, settings);
        String ref = reference(dml);
        String ts = settings.timestampColumn() == null ? null : table.storedName(settings.timestampColumn());
        boolean keyAssigned = assigned.stream().anyMatch(table.key()::contains);
        if (dml.ignore() && (!locking.ignore() || keyAssigned)) {
            // A row IGNORE skips keeps its key: the read of the new rows by their new keys would find another
            throw unsupported(dml, table, !locking.ignore() ? "UPDATE IGNORE" : "UPDATE IGNORE of a key column",
                    "write the UPDATE without IGNORE");
        }
        if (keyAssigned && locking.setLeftToRight()) checkKeyAssignmentsFirst(dml, table, assigned);

        List<String> otherOld = logged.oldColumns().stream().filter(c -> !table.key().contains(c)).toList();
        List<String> pageKeys = new ArrayList<>(table.key());

        // 1. the locking read
        // Paged (bounded memory) unless a page would see what the pages before it did: rows moved
        // to keys after the last one read (key updates), a subquery that reads the changed rows
        // again (MariaDB evaluates the application's against the rows as they were), or an order
        // and limit of the application's.
        // (Nor an UPDATE by the whole key: one row at most.)
        boolean keyEquality = KeyEquality.matches(dml.where(), table.key(), dml.target().foldedName(dialect),
                dml.target().alias(), dialect);
        boolean oneRow = locking.oneRowBlock() && !keyAssigned && dml.orderBy() == null && dml.limit() == null
                && keyEquality && !table.keyless();
        // H2 checks unique indexes once the statement has changed all its rows: an UPDATE assigning
        // a column of one (SET u = u + 1) would fail a page at a time where the raw one succeeds
        boolean uniqueAssigned = locking.uniqueCheckedAtStatementEnd() && assigned.stream().anyMatch(table::mayBeLockKey);
        // Nor a table without key: a NULL in its key has no place in key order, and identical rows are
        // changed a key at a time, as many as were locked, which needs all the locked rows at hand.
        boolean paged = dml.orderBy() == null && dml.limit() == null && !keyAssigned && !dml.whereHasSubquery()
                && !keyEquality && !uniqueAssigned && !table.keyless();
        PlannedSql head = readHead(dml, table, ref, otherOld, assigned, keyAssigned, false);
        PlannedSql firstRead = lockingRead(dml, head, ref, pageKeys, paged, false);
        PlannedSql nextRead = paged ? lockingRead(dml, head, ref, pageKeys, true, true) : null;
        PlannedSql lastRowRead = paged ? lastRowRead(dml, ref, pageKeys) : null;

        // 2. the restricted UPDATE (its WHERE is added per execution: the locked keys)
        SqlBuilder update = new SqlBuilder().sql(dml.ignore() ? "UPDATE IGNORE " : "UPDATE ").sql(dml.target().sqlText());
        if (dml.target().alias() != null) update.sql(" AS ").sql(ref);
        update.sql(" SET ");
        ColumnInfo tsInfo = ts == null ? null : table.column(ts).orElseThrow();
        for (int i = 0; i < dml.assignments().size(); i++) {
            Assignment a = dml.assignments().get(i);
            if (i > 0) update.sql(", ");
            String column = assigned.get(i);
            update.sql(dialect.quote(column) + " = ");
            if (column.equals(ts)) overriding(update, a.value(), nextTimestamp(locking, tsInfo, ref + "." + dialect.quote(ts)));
            else update.fragment(a.value());
        }
        if (ts != null && !assigned.contains(ts)) {
            // Last: MySQL evaluates SET left to right, and this reads the old timestamp.
            update.sql(", " + dialect.quote(ts) + " = " + nextTimestamp(locking, tsInfo, ref + "." + dialect.quote(ts)));
        }
        update.sql(" WHERE ");

        // 3. the read of the new values
        List<String> newItems = new ArrayList<>();
        for (String k : table.key()) newItems.add(ref + "." + dialect.quote(k));
        for (String c : logged.newColumns()) newItems.add(ref + "." + dialect.quote(c));
        String readNew = "SELECT " + String.join(", ", newItems) + " FROM " + dml.target().sqlText()
                + (dml.target().alias() != null ? " AS " + ref : "") + " WHERE ";

        SqlBuilder suffix = new SqlBuilder();
        if (dml.orderBy() != null && locking.updateOrderBy()) suffix.sql(" ORDER BY ").fragment(dml.orderBy());
        PlannedSql updatePrefix = update.build();
        // Unbounded and not paged by key: spilled to a temporary table when it locks more than a page
        boolean bounded = keyEquality || literalLimit(dml) <= pageSize || table.keyless();
        UpdatePlan.Spill spill = paged || bounded ? null : spill(dml, table, ref,
                readHead(dml, table, ref, otherOld, assigned, keyAssigned, true), updatePrefix,
                table.key().size() * (keyAssigned ? 2 : 1) + otherOld.size());
        UpdatePlan.OneRow block = !oneRow ? null : new UpdatePlan.OneRow(
                oneRowBlock(firstRead, updatePrefix, dml, readNew, false), oneRowBlock(firstRead, updatePrefix, dml, readNew, true));
        return new UpdatePlan(table, logged, otherOld, keyAssigned, dml.ignore(), pageSize, firstRead, nextRead, lastRowRead,
                updatePrefix, suffix.build(), readNew, ref, dialect, block, spill, keylessFilter(dml, table));
    }

    /**
     * A table without key: the application's WHERE, {@code (…) AND }, that a change of some of the
     * locked rows by key repeats, so that of rows identical in their compared columns it picks ones
     * the statement would change (they may differ in a LOB); empty with a subquery, which could read
     * the rows the statement's earlier steps changed, and for a table with a key.
     */
    private static PlannedSql keylessFilter(Dml dml, TableInfo table) {
        if (!table.keyless() || dml.where() == null || dml.whereHasSubquery()) return new PlannedSql("", List.of());
        return new SqlBuilder().sql("(").fragment(dml.where()).sql(") AND ").build();
    }

    /**
     * The locking read's items and FROM: key, other old columns, then the new key when the statement
     * assigns one; {@code aliased}: named repl_c1, repl_c2 … (the columns of a spill table).
     */
    private PlannedSql readHead(Dml dml, TableInfo table, String ref, List<String> otherOld, List<String> assigned,
            boolean keyAssigned, boolean aliased) {
        List<PlannedSql> items = new ArrayList<>();
        for (String k : table.key()) items.add(new PlannedSql(ref + "." + dialect.quote(k), List.of()));
        for (String c : otherOld) items.add(new PlannedSql(ref + "." + dialect.quote(c), List.of()));
        if (keyAssigned) {
            for (String k : table.key()) {
                int at = assigned.indexOf(k);
                items.add(at < 0 ? new PlannedSql(ref + "." + dialect.quote(k), List.of())
                        : new SqlBuilder().sql("(").fragment(dml.assignments().get(at).value()).sql(")").build());
            }
        }
        SqlBuilder select = new SqlBuilder().sql("SELECT ");
        for (int i = 0; i < items.size(); i++) {
            select.sql(i > 0 ? ", " : "").append(items.get(i)).sql(aliased ? " AS repl_c" + (i + 1) : "");
        }
        select.sql(" FROM ").sql(dml.target().sqlText());
        if (dml.target().alias() != null) select.sql(" AS ").sql(ref);
        return select.build();
    }

    /**
     * The rows an UPDATE changes, locked and held in a session temporary table on the server rather
     * than in memory (see {@link UpdatePlan.Spill}); {@code head}: the locking read's items, aliased.
     */
    private UpdatePlan.Spill spill(Dml dml, TableInfo table, String ref, PlannedSql head, PlannedSql updatePrefix,
            int columns) {
        PlannedSql read = lockingRead(dml, head, ref, table.key(), false, false);
        List<String> names = new ArrayList<>();
        for (int i = 1; i <= columns; i++) names.add("repl_c" + i);
        List<String> key = table.key().stream().map(k -> ref + "." + dialect.quote(k)).toList();
        return locking.spill(head, read, updatePrefix, key, names, pageSize);
    }

    /** The application's LIMIT when it is a number written in the statement, else {@code Long.MAX_VALUE}. */
    private static long literalLimit(Dml dml) {
        if (dml.limit() == null || !dml.limit().text().trim().matches("\\d{1,18}")) return Long.MAX_VALUE;
        return Long.parseLong(dml.limit().text().trim());
    }

    /**
     * MariaDB, an UPDATE of at most one row (WHERE is the full primary key equal to parameters): its
     * three steps in one compound statement, one round trip. Result sets: the locking read, then,
     * when it found the row, the update count and the new values ({@link UpdatePlan#readNew}'s
     * columns after the count). The update repeats the application's WHERE: it can only match the
     * row the read locked (the key is unique and not assigned), and runs only when the read found
     * it, so a row inserted meanwhile is never changed; when it found several (a substitute key
     * that is not unique) it changes nothing and the driver takes the general steps. Within the application's transaction a
     * failure after the UPDATE (a killed query, max_statement_time) undoes it through a savepoint,
     * so the statement stays all or nothing; with {@code begin} it first starts a transaction of its
     * own (auto-commit mode), which the driver rolls back on any failure.
     */
    private PlannedSql oneRowBlock(PlannedSql lockingRead, PlannedSql updatePrefix, Dml dml, String readNewPrefix,
            boolean begin) {
        // In a transaction of its own a failure rolls everything back: no savepoint needed.
        String savepoint = begin ? "" : "SAVEPOINT " + ONE_ROW_SAVEPOINT + ";\n";
        String release = begin ? "" : "RELEASE SAVEPOINT " + ONE_ROW_SAVEPOINT + ";\n";
        // A compound statement cannot be prepared on the server: MariaDB Connector/J prepares text that
        // starts with this comment on the client even with useServerPrepStmts=true (MySQL
        // Connector/J falls back by itself, emulateUnsupportedPstmts).
        SqlBuilder sql = new SqlBuilder().sql("/*client prepare*/BEGIN NOT ATOMIC DECLARE repl_n INT DEFAULT 0;"
                + " DECLARE repl_r BIGINT DEFAULT -1;\n");
        if (begin) sql.sql("START TRANSACTION;\n");
        else sql.sql("DECLARE EXIT HANDLER FOR SQLEXCEPTION BEGIN IF repl_r >= 0 THEN ROLLBACK TO SAVEPOINT "
                + ONE_ROW_SAVEPOINT + "; END IF; RESIGNAL; END;\n");
        sql.append(lockingRead).sql(";\nSET repl_n = FOUND_ROWS();\nIF repl_n = 1 THEN ").sql(savepoint)
                .append(updatePrefix).sql("(").fragment(dml.where()).sql("\n);\nSET repl_r = ROW_COUNT();\n")
                .sql(readNewPrefix.replaceFirst("^SELECT ", "SELECT repl_r, ")).sql("(").fragment(dml.where())
                .sql("\n);\n").sql(release).sql("END IF;\nEND");
        return sql.build();
    }

    /** Named so that it cannot meet one of the application's. */
    static final String ONE_ROW_SAVEPOINT = "repl_capture_one_row";

    private PlannedSql lockingRead(Dml dml, PlannedSql head, String ref, List<String> key, boolean paged, boolean after) {
        SqlBuilder sql = new SqlBuilder().append(head);
        List<String> conditions = new ArrayList<>();
        if (dml.where() != null) conditions.add("where");
        if (after) conditions.add("page");
        for (int i = 0; i < conditions.size(); i++) {
            sql.sql(i == 0 ? " WHERE " : " AND ");
            if (conditions.get(i).equals("where")) sql.sql("(").fragment(dml.where()).sql(")");
            else sql.append(pageAfter(ref, key));
        }
        if (paged) {
            List<String> order = key.stream().map(k -> ref + "." + dialect.quote(k)).toList();
            sql.sql(" ORDER BY ").sql(String.join(", ", order)).sql(locking.limit(pageSize));
        } else {
            if (dml.orderBy() != null) sql.sql(" ORDER BY ").fragment(dml.orderBy());
            if (dml.limit() != null) sql.sql(" LIMIT ").fragment(dml.limit());
        }
        return sql.sql(" FOR UPDATE").build();
    }

    /** The key of the last row the statement changes, in key order, locked: {@code … ORDER BY k DESC LIMIT 1 FOR UPDATE}. */
    private PlannedSql lastRowRead(Dml dml, String ref, List<String> key) {
        SqlBuilder sql = new SqlBuilder().sql("SELECT ")
                .sql(String.join(", ", key.stream().map(k -> ref + "." + dialect.quote(k)).toList()))
                .sql(" FROM ").sql(dml.target().sqlText());
        if (dml.target().alias() != null) sql.sql(" AS ").sql(ref);
        if (dml.where() != null) sql.sql(" WHERE (").fragment(dml.where()).sql(")");
        sql.sql(" ORDER BY ").sql(String.join(", ", key.stream().map(k -> ref + "." + dialect.quote(k) + " DESC").toList()));
        return sql.sql(locking.limit(1)).sql(" FOR UPDATE").build();
    }

    /** {@code ((k1 > ?) OR (k1 = ? AND k2 > ?) …) AND ((k1 < ?) OR … (k1 = ? AND k2 <= ?))}: after the last key read, up to the end. */
    private PlannedSql pageAfter(String ref, List<String> key) {
        return new SqlBuilder().append(keyCompare(ref, key, " > ", " > ")).sql(" AND ").append(keyCompare(ref, key, " < ", " <= "))
                .build();
    }

    /**
     * The key compared with driver values in key order: {@code (k1 op ?) OR (k1 = ? AND k2 op ?) …},
     * {@code last} for the last column ({@code <=} for "up to").
     */
    private PlannedSql keyCompare(String ref, List<String> key, String op, String last) {
        SqlBuilder sql = new SqlBuilder().sql("(");
        for (int i = 0; i < key.size(); i++) {
            if (i > 0) sql.sql(" OR ");
            sql.sql("(");
            for (int j = 0; j <= i; j++) {
                if (j > 0) sql.sql(" AND ");
                String compare = j < i ? " = " : i == key.size() - 1 ? last : op;
                sql.sql(ref + "." + dialect.quote(key.get(j)) + compare).driverValue();
            }
            sql.sql(")");
        }
        return sql.sql(")").build();
    }

    /**
     * MySQL evaluates SET left to right: a key expression after another assignment would see its new
     * value, which the locking read cannot compute. Key assignments must come first, one key column.
     */
    private void checkKeyAssignmentsFirst(Dml dml, TableInfo table, List<String> assigned) throws CaptureException {
        int keys = 0;
        for (String a : assigned) if (table.key().contains(a)) keys++;
        if (keys > 1 || !table.key().contains(assigned.get(0))) {
            throw unsupported(dml, table, "an assignment to a key column that is not the first of its SET list",
                    "assign the key column first and only one key column per statement");
        }
    }

    // ---- helpers

    /** The driver's value replaces the application's, which is still evaluated (its parameters stay bound in order). */
    static void overriding(SqlBuilder sql, SqlFragment applicationValue, String driverValue) {
        if (applicationValue.text().trim().equalsIgnoreCase("DEFAULT")) {
            sql.sql(driverValue);
            return;
        }
        sql.sql("CASE WHEN (").fragment(applicationValue).sql(") IS NULL THEN " + driverValue + " ELSE " + driverValue + " END");
    }

    private static List<Integer> allParameters(Dml dml) {
        List<Integer> all = new ArrayList<>();
        for (int i = 1; i <= dml.parameterCount(); i++) all.add(i);
        return all;
    }

    /** The statement without trailing blanks and semicolons. */
    static String stripEnd(String sql) {
        int end = sql.length();
        while (end > 0 && (Character.isWhitespace(sql.charAt(end - 1)) || sql.charAt(end - 1) == ';')) end--;
        return sql.substring(0, end);
    }

    private String reference(Dml dml) {
        String alias = dml.target().alias();
        if (alias != null) {
            // The parser keeps an alias without its quotes; H2 folds an unquoted one to upper case
            boolean quoted = dml.sql().contains(dialect.quote(alias));
            return dialect.quote(dialect.fold(alias, quoted));
        }
        return dialect.quote(dml.target().foldedName(dialect));
    }

    private String stored(TableInfo table, ColumnRef column) {
        return table.storedName(dialect.fold(column.name(), column.quoted()));
    }

    /** SPEC 5.6: now, or the old value plus a microsecond when it is not earlier than now. */
    static String nextTimestamp(LockingSql locking, ColumnInfo column, String current) {
        String now = locking.now(column);
        return "CASE WHEN " + current + " IS NULL OR " + current + " < " + now + " THEN " + now + " ELSE "
                + locking.plusMicrosecond(current) + " END";
    }

    private String quotedList(List<String> columns) {
        StringBuilder out = new StringBuilder();
        for (String c : columns) {
            if (out.length() > 0) out.append(", ");
            out.append(dialect.quote(c));
        }
        return out.toString();
    }

    private static CaptureException unsupported(Dml dml, TableInfo table, String what, String instead) {
        return new CaptureException(dml.command() + " on " + table.qualifiedName() + " with " + what
                + " cannot be captured on this database: " + instead
                + ", or set repl.unsupported=passthrough to run it uncaptured");
    }
}
