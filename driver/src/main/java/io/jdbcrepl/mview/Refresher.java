package io.jdbcrepl.mview;

import io.jdbcrepl.dialect.Dialect;
import io.jdbcrepl.intercept.SqlState;
import io.jdbcrepl.lcr.TemporalText;
import io.jdbcrepl.mview.MviewCommand.Method;
import io.jdbcrepl.mview.MviewCommand.Name;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.time.LocalDateTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Refreshes views in the caller's transaction (Oracle's SNAPTIME$$ scheme):
 * <ol>
 * <li>the views of the master are locked (their catalog rows), which orders the refreshes of one
 * master; the refresh time is after every earlier one;</li>
 * <li>the log rows no refresh has stamped yet get the refresh time: what this refresh consumes is
 * then exactly the rows stamped after the view's last refresh and up to now, whatever commits
 * meanwhile;</li>
 * <li>fast: the groups (aggregate views) or keys (other views) those rows name are deleted from the
 * view and computed again from the master; complete: the view's query runs again;</li>
 * <li>the rows every fast-refresh view has refreshed past are purged.</li>
 * </ol>
 * Recomputing what the log names, instead of adding deltas, is idempotent: a change the master
 * shows before its log row is stamped is recomputed once more later, with the same result.
 */
final class Refresher {

    /** Keys per DELETE/INSERT of a fast refresh: one column makes an IN list, several an OR of ANDs. */
    static final int KEYS_PER_STATEMENT = 5000;
    static final int TUPLES_PER_STATEMENT = 500;

    private final MviewCatalog catalog;
    private final Dialect dialect;
    private final RefreshSql sql;

    Refresher(MviewCatalog catalog) {
        this.catalog = catalog;
        this.dialect = catalog.dialect;
        this.sql = dialect.part(RefreshSql.class);
    }

    /** A view's catalog row, locked. */
    private record Locked(Name view, LocalDateTime last, boolean stale, boolean fast) {
    }

    private List<Locked> lock(Connection raw, Name master) throws SQLException {
        List<Locked> out = new ArrayList<>();
        try (PreparedStatement ps = raw.prepareStatement("SELECT view_schema, view_name, last_refresh, stale, method FROM "
                + catalog.viewTable() + " WHERE master_schema = ? AND master_table = ? ORDER BY view_schema, view_name FOR UPDATE")) {
            ps.setString(1, master.schema());
            ps.setString(2, master.name());
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(new Locked(new Name(rs.getString(1), rs.getString(2)), rs.getObject(3, LocalDateTime.class),
                            "Y".equals(rs.getString(4)), Method.FAST.name().equals(rs.getString(5))));
                }
            }
        }
        return out;
    }

    /**
     * MariaDB: a transaction locks the catalog rows of a master's views before its first change to
     * the master (not only at commit), so that the writers of a master with ON COMMIT views take
     * their turns. InnoDB's refresh reads are locking reads (the transaction's snapshot may be older
     * than the log rows it stamps), and two writers that each read the other's uncommitted rows at
     * commit would deadlock.
     */
    void lockMaster(Connection raw, Name master) throws SQLException {
        lock(raw, master);
    }

    /** Now, or just after the latest refresh of the master's views when the clock says otherwise. */
    private static LocalDateTime refreshTime(List<Locked> views) {
        LocalDateTime now = LocalDateTime.now().truncatedTo(ChronoUnit.MICROS);
        for (Locked v : views) {
            if (!now.isAfter(v.last())) now = v.last().plus(1, ChronoUnit.MICROS);
        }
        return now;
    }

    /**
     * Refreshes the ON COMMIT views of {@code masters} in the committing transaction, master by
     * master in name order (one lock order: two committing transactions cannot deadlock on them).
     */
    void beforeCommit(Connection raw, java.util.Collection<Name> masters) throws SQLException {
        List<Name> ordered = new ArrayList<>(masters);
        ordered.sort((a, b) -> a.toString().compareTo(b.toString()));
        for (Name master : ordered) {
            for (ViewDefinition v : catalog.viewsOn(master)) {
                if (v.onCommit()) refresh(raw, v, Method.FORCE);
            }
        }
    }

    /** Creates the view's content and its catalog row (the view's table exists and is empty). */
    void build(Connection raw, ViewDefinition view) throws SQLException {
        List<Locked> others = lock(raw, view.master());
        LocalDateTime time = refreshTime(others);
        Optional<LogDefinition> log = catalog.log(view.master());
        if (log.isPresent()) stamp(raw, log.get(), time); // what the build reads is behind the view
        insertAll(raw, view);
        catalog.addView(raw, view, time);
        if (log.isPresent()) purge(raw, log.get(), false); // a view alone on its log needs none of the rows before it
    }

    /**
     * Refreshes one view: {@code FAST} fails when the view cannot be refreshed fast, {@code FORCE}
     * refreshes fast when it can, {@code COMPLETE} runs the query again.
     */
    void refresh(Connection raw, ViewDefinition view, Method requested) throws SQLException {
        List<Locked> views = lock(raw, view.master());
        Locked me = views.stream().filter(v -> v.view().equals(view.view())).findFirst()
                .orElseThrow(() -> SqlState.UNDEFINED_TABLE.exception(
                        "Materialized view " + view.view() + " does not exist (any more)"));
        LocalDateTime time = refreshTime(views);
        Optional<LogDefinition> log = catalog.log(view.master());
        boolean fast = requested != Method.COMPLETE && view.fast() && !me.stale() && log.isPresent();
        if (requested == Method.FAST && !view.fast()) {
            throw new SQLFeatureNotSupportedException("Materialized view " + view.view()
                    + " is REFRESH COMPLETE: it cannot be refreshed fast (DBMS_MVIEW.REFRESH method 'F')", SqlState.REFUSED.code());
        }
        // the only fast view of its log takes its rows out at once (Oracle: "the log is cleared");
        // with others, it stamps them and the last one to refresh past them purges them
        boolean alone = views.stream().noneMatch(v -> v.fast() && !v.stale() && !v.view().equals(view.view()));
        if (log.isPresent() && !(fast && alone)) stamp(raw, log.get(), time);
        if (fast) fast(raw, view, log.get(), me.last(), time, alone);
        else complete(raw, view);
        Sql.update(raw, "UPDATE " + catalog.viewTable() + " SET last_refresh = " + Sql.timestamp(time)
                + ", stale = 'N' WHERE view_schema = ? AND view_name = ?", List.of(view.view().schema(), view.view().name()));
        if (log.isPresent() && !(fast && alone)) {
            LocalDateTime consumed = null;
            for (Locked v : views) {
                if (!v.fast() || (v.stale() && !v.view().equals(view.view()))) continue;
                LocalDateTime last = v.view().equals(view.view()) ? time : v.last();
                if (consumed == null || last.isBefore(consumed)) consumed = last;
            }
            if (consumed != null) purgeUpTo(raw, log.get(), consumed);
        }
    }

    /** DBMS_MVIEW.PURGE_LOG: the rows every fast view has consumed, or (all) every row; views then missing rows go stale. */
    void purge(Connection raw, LogDefinition log, boolean all) throws SQLException {
        List<Locked> views = lock(raw, log.master());
        LocalDateTime consumed = null;
        for (Locked v : views) {
            if (v.fast() && !v.stale() && (consumed == null || v.last().isBefore(consumed))) consumed = v.last();
        }
        if (all) {
            if (!views.isEmpty()) catalog.markStale(raw, log.master());
            Sql.execute(raw, "DELETE FROM " + logTable(log));
        } else if (consumed != null) {
            purgeUpTo(raw, log, consumed);
        }
    }

    private void purgeUpTo(Connection raw, LogDefinition log, LocalDateTime time) throws SQLException {
        Sql.execute(raw, "DELETE FROM " + logTable(log) + " WHERE " + snaptime() + " <= " + Sql.timestamp(time));
    }

    private void stamp(Connection raw, LogDefinition log, LocalDateTime time) throws SQLException {
        Sql.execute(raw, "UPDATE " + logTable(log) + " SET " + snaptime() + " = " + Sql.timestamp(time) + " WHERE "
                + snaptime() + " = " + Sql.timestamp(Sql.NOT_REFRESHED));
    }

    private String snaptime() {
        return Sql.quote(dialect, Sql.column(dialect, "SNAPTIME$$"));
    }

    private String logTable(LogDefinition log) {
        return Sql.quote(dialect, new Name(log.master().schema(), log.logTable()));
    }

    private void complete(Connection raw, ViewDefinition view) throws SQLException {
        Sql.execute(raw, "DELETE FROM " + Sql.quote(dialect, view.view()));
        insertAll(raw, view);
    }

    private void insertAll(Connection raw, ViewDefinition view) throws SQLException {
        Sql.execute(raw, "INSERT INTO " + Sql.quote(dialect, view.view()) + " " + view.query().restricted(null));
    }

    /**
     * Fast refresh from the log rows after {@code after}: those stamped up to {@code upTo}, or, when
     * the view is {@code alone} on its log, every such row, deleted by the statement that reads it
     * (so exactly the rows read go, whatever commits meanwhile).
     */
    private void fast(Connection raw, ViewDefinition view, LogDefinition log, LocalDateTime after, LocalDateTime upTo,
            boolean alone) throws SQLException {
        List<String> key = FastRefresh.refreshKey(view.query(), log);
        String current = sql.currentRead();
        List<String> baseColumns = key.stream().map(c -> Sql.quote(dialect, c)).toList();
        String select = key.isEmpty() ? "1" : String.join(", ", baseColumns);
        String later = snaptime() + " > " + Sql.timestamp(after);
        String read = alone ? sql.deleteReturning(logTable(log), later, select)
                : "SELECT DISTINCT " + select + " FROM " + logTable(log) + " WHERE " + later + " AND " + snaptime() + " <= "
                        + Sql.timestamp(upTo) + current;
        java.util.Set<List<Object>> distinct = new java.util.LinkedHashSet<>();
        try (PreparedStatement ps = raw.prepareStatement(read)) {
            // execute(): MySQL Connector/J refuses executeQuery() for a DELETE … RETURNING
            if (ps.execute()) {
                try (ResultSet rs = ps.getResultSet()) {
                    while (rs.next()) {
                        Object[] t = new Object[Math.max(1, key.size())];
                        for (int i = 0; i < t.length; i++) t[i] = keyValue(rs, i + 1);
                        distinct.add(java.util.Arrays.asList(t));
                    }
                }
            }
        }
        if (key.isEmpty()) { // an aggregate over the whole table: one group
            if (!distinct.isEmpty()) complete(raw, view);
            return;
        }
        List<Object[]> tuples = new ArrayList<>();
        for (List<Object> t : distinct) tuples.add(t.toArray());
        ViewTable table = catalog.viewTables.get(view.view());
        if (table == null) {
            table = ViewTable.read(raw, dialect, view, key);
            catalog.viewTables.put(view.view(), table);
        }
        String mv = Sql.quote(dialect, view.view());
        int step = key.size() == 1 ? KEYS_PER_STATEMENT : TUPLES_PER_STATEMENT;
        for (int from = 0; from < tuples.size(); from += step) {
            List<Object[]> chunk = tuples.subList(from, Math.min(tuples.size(), from + step));
            KeyMatch inView = match(raw, table.key(), chunk);
            KeyMatch inMaster = match(raw, baseColumns, chunk);
            String rows = view.query().restricted(inMaster.sql());
            if (!table.unique()) {
                Sql.update(raw, "DELETE FROM " + mv + " WHERE " + inView.sql(), inView.parameters());
                Sql.update(raw, "INSERT INTO " + mv + " " + rows + current, inMaster.parameters());
            } else {
                for (BoundSql s : sql.refreshInPlace(mv, table, inView, new BoundSql(rows, inMaster.parameters()))) {
                    Sql.update(raw, s.sql(), s.parameters());
                }
            }
        }
    }

    /**
     * A key value read from the log, to be bound again with every fractional digit: a time as a
     * {@code LocalTime} ({@code getObject} gives a {@code java.sql.Time}, which keeps milliseconds);
     * where the database asks ({@link RefreshSql#temporalsAsText}), a time or timestamp as text.
     */
    private Object keyValue(ResultSet rs, int column) throws SQLException {
        Object v = rs.getObject(column);
        if (v instanceof java.sql.Time && !rs.getMetaData().getColumnTypeName(column).toLowerCase(java.util.Locale.ROOT).contains("tz")) {
            v = rs.getObject(column, java.time.LocalTime.class);
        }
        if (!sql.temporalsAsText()) return v;
        if (v instanceof java.sql.Timestamp) v = rs.getObject(column, LocalDateTime.class);
        String text = TemporalText.of(v);
        return text != null ? text : v;
    }

    /**
     * Where the database binds arrays ({@link RefreshSql#arrayParameters}), one key column without
     * NULLs is matched with {@code = ANY(?)} and one array (a plan for any number of keys, and no
     * parsing of thousands of parameters); else {@link KeyMatch}.
     */
    private KeyMatch match(Connection raw, List<String> columns, List<Object[]> tuples) throws SQLException {
        String type = columns.size() == 1 && sql.arrayParameters() ? arrayType(tuples) : null;
        if (type == null) return KeyMatch.of(columns, tuples);
        Object[] values = new Object[tuples.size()];
        for (int i = 0; i < values.length; i++) values[i] = tuples.get(i)[0];
        return new KeyMatch(columns.get(0) + " = ANY(?)", List.of(raw.createArrayOf(type, values)));
    }

    /** The SQL element type of an array of these values, or null when they have none in common (or a NULL). */
    private static String arrayType(List<Object[]> tuples) {
        Class<?> kind = null;
        for (Object[] t : tuples) {
            if (t[0] == null || (kind != null && kind != t[0].getClass())) return null;
            kind = t[0].getClass();
        }
        if (kind == Integer.class) return "integer";
        if (kind == Long.class) return "bigint";
        if (kind == Short.class) return "smallint";
        if (kind == String.class) return "varchar";
        if (kind == java.math.BigDecimal.class) return "numeric";
        return null;
    }
}
