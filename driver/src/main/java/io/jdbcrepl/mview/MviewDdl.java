package io.jdbcrepl.mview;

import io.jdbcrepl.capture.TableInfo;
import io.jdbcrepl.dialect.Dialect;
import io.jdbcrepl.intercept.SqlState;
import io.jdbcrepl.mview.MviewCommand.CreateLog;
import io.jdbcrepl.mview.MviewCommand.CreateView;
import io.jdbcrepl.mview.MviewCommand.DropLog;
import io.jdbcrepl.mview.MviewCommand.DropView;
import io.jdbcrepl.mview.MviewCommand.Method;
import io.jdbcrepl.mview.MviewCommand.Name;
import io.jdbcrepl.mview.MviewCommand.PurgeLog;
import io.jdbcrepl.mview.MviewCommand.Refresh;
import io.jdbcrepl.node.TableCatalog;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Runs the commands of {@link MviewParser} on the real connection, in the caller's transaction. */
final class MviewDdl {

    interface Resolver {
        Name resolve(Name name) throws SQLException;
    }

    private final MviewCatalog catalog;
    private final Refresher refresher;
    private final Resolver resolver;
    private final Dialect dialect;
    private final LogTables logTables;

    MviewDdl(MviewCatalog catalog, Refresher refresher, Resolver resolver) {
        this.catalog = catalog;
        this.refresher = refresher;
        this.resolver = resolver;
        this.dialect = catalog.dialect;
        this.logTables = new LogTables(dialect);
    }

    void run(Connection raw, MviewCommand command) throws SQLException {
        if (command instanceof CreateLog c) createLog(raw, c);
        else if (command instanceof DropLog d) dropLog(raw, d);
        else if (command instanceof CreateView c) createView(raw, c);
        else if (command instanceof DropView d) dropView(raw, d);
        else if (command instanceof Refresh r) refresh(raw, r.views(), r.method());
        else if (command instanceof PurgeLog p) purge(raw, p);
    }

    private TableInfo master(Connection raw, Name table) throws SQLException {
        return TableCatalog.load(raw, dialect, table.schema(), table.name(), null)
                .orElseThrow(() -> SqlState.UNDEFINED_TABLE.exception("Table " + table + " does not exist"));
    }

    private void createLog(Connection raw, CreateLog c) throws SQLException {
        Name master = resolver.resolve(c.table());
        if (catalog.log(master).isPresent()) {
            throw SqlState.DUPLICATE_OBJECT.exception("Table " + master + " already has a materialized view log ("
                    + catalog.log(master).get().logTable() + ")");
        }
        TableInfo info = master(raw, master);
        Name stored = new Name(master.schema(), info.name());
        List<String> listed = new ArrayList<>();
        for (String col : c.columns()) {
            listed.add(info.column(col).map(x -> x.name()).orElseThrow(() -> SqlState.UNDEFINED_COLUMN.exception(
                    "CREATE MATERIALIZED VIEW LOG ON "
                    + master + ": the table has no column " + col + " (its columns: "
                    + info.columns().stream().map(x -> x.name()).toList() + ")")));
        }
        if (c.rowid() && info.key().isEmpty()) {
            throw new SQLFeatureNotSupportedException("CREATE MATERIALIZED VIEW LOG ON " + master + " WITH ROWID: "
                    + rowidReason() + "; the driver's ROWID (M_ROW$$) is the primary key, and " + master
                    + " has none: add a primary key", SqlState.REFUSED.code());
        }
        if (c.primaryKey() && info.key().isEmpty()) {
            throw new SQLFeatureNotSupportedException("CREATE MATERIALIZED VIEW LOG ON " + master + " WITH PRIMARY KEY"
                    + " (the default): the table has no primary key", SqlState.REFUSED.code());
        }
        String name = LogDefinition.logTableName(info.name(), dialect.foldsToUpper(), n -> exists(raw, master.schema(), n));
        LogDefinition log = new LogDefinition(stored, name, c.primaryKey(), c.rowid(), c.sequence(), List.copyOf(listed),
                c.newValues(), info.key());
        catalog.install(raw);
        logTables.create(raw, log, info);
        catalog.addLog(raw, log);
        catalog.changed(raw);
    }

    private String rowidReason() {
        return dialect.part(MviewSql.class).rowidReason();
    }

    private boolean exists(Connection raw, String schema, String table) {
        try {
            DatabaseMetaData md = raw.getMetaData();
            try (ResultSet rs = dialect.schemasAreCatalogs() ? md.getTables(schema, null, table, null)
                    : md.getTables(null, schema, table, null)) {
                while (rs.next()) {
                    if (table.equalsIgnoreCase(rs.getString("TABLE_NAME"))) return true;
                }
                return false;
            }
        } catch (SQLException e) {
            throw new IllegalStateException("Cannot read the tables of " + schema + ": " + e.getMessage(), e);
        }
    }

    private LogDefinition existingLog(Name master, String statement) throws SQLException {
        return catalog.log(master).orElseThrow(() -> SqlState.UNDEFINED_OBJECT.exception(statement + " " + master
                + ": the table has no materialized view log"));
    }

    private void dropLog(Connection raw, DropLog d) throws SQLException {
        Name master = resolver.resolve(d.table());
        LogDefinition log = existingLog(master, "DROP MATERIALIZED VIEW LOG ON");
        logTables.drop(raw, log);
        catalog.removeLog(raw, log.master());
        catalog.markStale(raw, log.master()); // the views missed what the log would have held: complete next time
        catalog.changed(raw);
    }

    private void createView(Connection raw, CreateView c) throws SQLException {
        Name view = resolver.resolve(c.view());
        if (catalog.view(view).isPresent()) throw SqlState.DUPLICATE_OBJECT.exception("Materialized view " + view + " already exists");
        ViewQuery query = ViewQuery.parse(c.query(), dialect);
        Name master = resolver.resolve(query.master());
        TableInfo info = master(raw, master);
        master = new Name(master.schema(), info.name());
        Optional<LogDefinition> log = catalog.log(master);
        String problem = log.isEmpty() ? "there is no materialized view log on " + master : FastRefresh.problem(query, log.get());
        Method method = c.method();
        if (method == Method.FAST && problem != null) {
            throw new SQLFeatureNotSupportedException("CREATE MATERIALIZED VIEW " + view + " REFRESH FAST: cannot refresh fast: "
                    + problem, SqlState.REFUSED.code());
        }
        if (method == Method.FORCE) method = problem == null ? Method.FAST : Method.COMPLETE;
        catalog.install(raw);
        String table = Sql.quote(dialect, view);
        Sql.execute(raw, "CREATE TABLE " + table + " AS SELECT * FROM (" + query.restricted(null) + ") repl_q WHERE 1 = 0");
        ViewDefinition definition = new ViewDefinition(view, master, query, method, c.onCommit());
        if (method == Method.FAST) {
            List<String> key = FastRefresh.refreshKey(query, log.get());
            if (!key.isEmpty()) {
                String columns = String.join(", ", ViewTable.read(raw, dialect, definition, key).key());
                String index = Sql.quote(dialect, view.name() + "$key");
                if (query.aggregate()) {
                    Sql.execute(raw, "CREATE INDEX " + index + " ON " + table + " (" + columns + ")");
                } else {
                    for (String ddl : dialect.part(MviewSql.class).viewKey(table, index, columns)) Sql.execute(raw, ddl);
                }
            }
        }
        refresher.build(raw, definition);
        catalog.changed(raw);
    }

    private void dropView(Connection raw, DropView d) throws SQLException {
        Name name = resolver.resolve(d.view());
        ViewDefinition view = catalog.view(name).orElseThrow(() -> SqlState.UNDEFINED_TABLE.exception("Materialized view " + name
                + " does not exist"));
        Sql.execute(raw, "DROP TABLE " + Sql.quote(dialect, view.view()));
        catalog.removeView(raw, view.view());
        Optional<LogDefinition> log = catalog.log(view.master());
        if (log.isPresent()) refresher.purge(raw, log.get(), false); // rows only it still needed
        catalog.changed(raw);
    }

    void refresh(Connection raw, List<Name> names, Method method) throws SQLException {
        List<ViewDefinition> views = new ArrayList<>();
        for (Name n : names) {
            Name resolved = resolver.resolve(n);
            Optional<ViewDefinition> v = catalog.view(resolved);
            if (v.isEmpty()) { // created by another JVM?
                catalog.reload(raw);
                v = catalog.view(resolved);
            }
            views.add(v.orElseThrow(() -> SqlState.UNDEFINED_TABLE.exception("Materialized view " + resolved + " does not exist")));
        }
        for (ViewDefinition v : views) refresher.refresh(raw, v, method);
    }

    void purge(Connection raw, PurgeLog p) throws SQLException {
        Name master = resolver.resolve(p.table());
        refresher.purge(raw, existingLog(master, "DBMS_MVIEW.PURGE_LOG"), p.all());
        if (p.all()) catalog.changed(raw);
    }
}
