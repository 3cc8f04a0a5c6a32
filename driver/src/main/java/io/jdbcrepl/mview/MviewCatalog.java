package io.jdbcrepl.mview;

import io.jdbcrepl.dialect.Dialect;
import io.jdbcrepl.config.InstallMode;
import io.jdbcrepl.intercept.SqlState;
import io.jdbcrepl.log.DriverSchema;
import io.jdbcrepl.mview.MviewCommand.Method;
import io.jdbcrepl.mview.MviewCommand.Name;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The logs and views of one database, kept in two tables of the driver ({@code repl_mview_log},
 * {@code repl_mview}) and cached for the JVM. The cache is read on the first connection to the
 * database and changed by the DDL run through this JVM's connections; logs or views created by
 * another JVM are seen here after a reconnect of the JVM's first connection is not needed: see
 * {@link #reload}, which {@code DBMS_MVIEW.REFRESH} calls.
 */
final class MviewCatalog {

    private static final int MAX_DATABASES = 64;
    private static final Map<String, MviewCatalog> CATALOGS = Collections.synchronizedMap(
            new LinkedHashMap<>(16, 0.75f, true) {
                @Override
                protected boolean removeEldestEntry(Map.Entry<String, MviewCatalog> eldest) {
                    return size() > MAX_DATABASES;
                }
            });

    final Dialect dialect;
    /** Where the two tables live. */
    final String schema;
    private volatile State state = new State(Map.of(), Map.of());
    /** Per view, the shape of its table as a fast refresh writes it; forgotten on every change. */
    final Map<Name, ViewTable> viewTables = new java.util.concurrent.ConcurrentHashMap<>();

    /** {@code anyOnCommit}: whether a view is ON COMMIT, known once, as every pass-through statement asks it. */
    record State(Map<Name, LogDefinition> logs, Map<Name, ViewDefinition> views, boolean anyOnCommit) {
        State(Map<Name, LogDefinition> logs, Map<Name, ViewDefinition> views) {
            this(logs, views, views.values().stream().anyMatch(ViewDefinition::onCommit));
        }

        /** Whether an ON COMMIT view reads {@code table} (MariaDB compares names without case). */
        boolean onCommitMaster(Name table) {
            for (ViewDefinition v : views.values()) {
                if (v.onCommit() && (v.master().equals(table) || (v.master().toString().equalsIgnoreCase(table.toString())))) {
                    return true;
                }
            }
            return false;
        }
    }

    private MviewCatalog(Dialect dialect, String schema) {
        this.dialect = dialect;
        this.schema = schema;
    }

    /** The catalog of the database {@code url} reaches, loaded with {@code raw} the first time. */
    static MviewCatalog of(String url, Dialect dialect, String schema, Connection raw) throws SQLException {
        String key = url + "\u0000" + schema;
        synchronized (CATALOGS) {
            MviewCatalog catalog = CATALOGS.get(key);
            if (catalog == null) {
                catalog = new MviewCatalog(dialect, schema);
                catalog.reload(raw);
                CATALOGS.put(key, catalog);
            }
            return catalog;
        }
    }

    State state() {
        return state;
    }

    String logTable() {
        return Sql.quote(dialect, new Name(schema, fold("repl_mview_log")));
    }

    String viewTable() {
        return Sql.quote(dialect, new Name(schema, fold("repl_mview")));
    }

    private String fold(String lower) {
        return dialect.fold(lower, false);
    }

    boolean installed(Connection raw) throws SQLException {
        DatabaseMetaData md = raw.getMetaData();
        String name = fold("repl_mview");
        try (ResultSet rs = dialect.schemasAreCatalogs() ? md.getTables(schema, null, name, null)
                : md.getTables(null, schema, name, null)) {
            while (rs.next()) {
                if (name.equals(rs.getString("TABLE_NAME"))) return true;
            }
        }
        return false;
    }

    /** Creates the two tables when missing. */
    void install(Connection raw) throws SQLException {
        if (installed(raw)) return;
        if (schema == null) {
            throw SqlState.INVALID_CATALOG_NAME.exception(
                    "The connection has no current database, so the driver's database <database>_"
                    + DriverSchema.DEFAULT + " for its materialized-view catalog has no name: name a database in the URL"
                    + " or set repl.schema");
        }
        DriverSchema.ensure(raw, dialect, schema, InstallMode.AUTO);
        MviewSql sql = dialect.part(MviewSql.class);
        String text = sql.textType();
        String time = sql.timestampType();
        String charset = sql.tableOptions();
        Sql.execute(raw, "CREATE TABLE " + logTable() + " (master_schema VARCHAR(128) NOT NULL,"
                + " master_table VARCHAR(128) NOT NULL, log_table VARCHAR(128) NOT NULL,"
                + " primary_key CHAR(1) NOT NULL, row_id CHAR(1) NOT NULL, seq CHAR(1) NOT NULL,"
                + " new_values CHAR(1) NOT NULL, listed " + text + " NOT NULL, master_key " + text + " NOT NULL,"
                + " PRIMARY KEY (master_schema, master_table))" + charset);
        Sql.execute(raw, "CREATE TABLE " + viewTable() + " (view_schema VARCHAR(128) NOT NULL,"
                + " view_name VARCHAR(128) NOT NULL, master_schema VARCHAR(128) NOT NULL,"
                + " master_table VARCHAR(128) NOT NULL, query " + text + " NOT NULL, method VARCHAR(8) NOT NULL,"
                + " on_commit CHAR(1) NOT NULL, last_refresh " + time + " NOT NULL, stale CHAR(1) NOT NULL,"
                + " PRIMARY KEY (view_schema, view_name))" + charset);
    }

    /** Reads both tables again (nothing when they do not exist). */
    void reload(Connection raw) throws SQLException {
        if (!installed(raw)) {
            viewTables.clear();
            state = new State(Map.of(), Map.of());
            return;
        }
        Map<Name, LogDefinition> logs = new LinkedHashMap<>();
        try (PreparedStatement ps = raw.prepareStatement("SELECT master_schema, master_table, log_table, primary_key,"
                + " row_id, seq, new_values, listed, master_key FROM " + logTable());
                ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                Name master = new Name(rs.getString(1), rs.getString(2));
                logs.put(master, new LogDefinition(master, rs.getString(3), yes(rs.getString(4)), yes(rs.getString(5)),
                        yes(rs.getString(6)), list(rs.getString(8)), yes(rs.getString(7)), list(rs.getString(9))));
            }
        }
        Map<Name, ViewDefinition> views = new LinkedHashMap<>();
        try (PreparedStatement ps = raw.prepareStatement("SELECT view_schema, view_name, master_schema, master_table,"
                + " query, method, on_commit FROM " + viewTable());
                ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                Name view = new Name(rs.getString(1), rs.getString(2));
                views.put(view, new ViewDefinition(view, new Name(rs.getString(3), rs.getString(4)),
                        ViewQuery.parse(rs.getString(5), dialect), Method.valueOf(rs.getString(6)), yes(rs.getString(7))));
            }
        }
        viewTables.clear();
        state = new State(Map.copyOf(logs), Map.copyOf(views));
    }

    Optional<LogDefinition> log(Name master) {
        return Optional.ofNullable(state.logs().get(master));
    }

    Optional<ViewDefinition> view(Name view) {
        return Optional.ofNullable(state.views().get(view));
    }

    List<ViewDefinition> viewsOn(Name master) {
        List<ViewDefinition> out = new ArrayList<>();
        for (ViewDefinition v : state.views().values()) {
            if (v.master().equals(master)) out.add(v);
        }
        return out;
    }

    void addLog(Connection raw, LogDefinition log) throws SQLException {
        try (PreparedStatement ps = raw.prepareStatement("INSERT INTO " + logTable() + " (master_schema, master_table,"
                + " log_table, primary_key, row_id, seq, new_values, listed, master_key) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
            ps.setString(1, log.master().schema());
            ps.setString(2, log.master().name());
            ps.setString(3, log.logTable());
            ps.setString(4, flag(log.primaryKey()));
            ps.setString(5, flag(log.rowid()));
            ps.setString(6, flag(log.sequence()));
            ps.setString(7, flag(log.newValues()));
            ps.setString(8, String.join(",", log.listed()));
            ps.setString(9, String.join(",", log.masterKey()));
            ps.executeUpdate();
        }
    }

    void removeLog(Connection raw, Name master) throws SQLException {
        Sql.update(raw, "DELETE FROM " + logTable() + " WHERE master_schema = ? AND master_table = ?",
                List.of(master.schema(), master.name()));
    }

    void addView(Connection raw, ViewDefinition view, java.time.LocalDateTime lastRefresh) throws SQLException {
        Sql.update(raw, "INSERT INTO " + viewTable() + " (view_schema, view_name, master_schema, master_table, query,"
                + " method, on_commit, last_refresh, stale) VALUES (?, ?, ?, ?, ?, ?, ?, " + Sql.timestamp(lastRefresh)
                + ", 'N')", List.of(view.view().schema(), view.view().name(), view.master().schema(),
                view.master().name(), view.query().sql(), view.method().name(), flag(view.onCommit())));
    }

    void removeView(Connection raw, Name view) throws SQLException {
        Sql.update(raw, "DELETE FROM " + viewTable() + " WHERE view_schema = ? AND view_name = ?",
                List.of(view.schema(), view.name()));
    }

    /** Makes every view of {@code master} refresh completely next time (its log was dropped or purged). */
    void markStale(Connection raw, Name master) throws SQLException {
        Sql.update(raw, "UPDATE " + viewTable() + " SET stale = 'Y' WHERE master_schema = ? AND master_table = ?",
                List.of(master.schema(), master.name()));
    }

    /** The cache after a change this JVM made (the caller's transaction may still roll it back: then {@link #reload}). */
    synchronized void changed(Connection raw) throws SQLException {
        reload(raw);
    }

    private static boolean yes(String flag) {
        return "Y".equals(flag);
    }

    private static String flag(boolean b) {
        return b ? "Y" : "N";
    }

    private static List<String> list(String s) {
        return s == null || s.isEmpty() ? List.of() : List.copyOf(Arrays.asList(s.split(",")));
    }
}
