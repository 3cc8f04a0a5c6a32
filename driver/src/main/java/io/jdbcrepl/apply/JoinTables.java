package io.jdbcrepl.apply;

import io.jdbcrepl.capture.TableInfo;
import io.jdbcrepl.dialect.Dialect;
import io.jdbcrepl.intercept.SqlState;
import io.jdbcrepl.logging.DriverLog;
import io.jdbcrepl.node.Node;
import io.jdbcrepl.node.TableCatalog;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The tables of a {@link Join}: which of the donor's it copies, in which order (parents first),
 * whether their counterparts here may take the copy, and creating those that are missing.
 */
final class JoinTables {

    private static final DriverLog LOG = DriverLog.of(JoinTables.class);

    private final Node node;
    private final String donor;
    private final boolean replace;
    private final JoinState state;

    JoinTables(Node node, String donor, boolean replace, JoinState state) {
        this.node = node;
        this.donor = donor;
        this.replace = replace;
        this.state = state;
    }

    /**
     * The donor's tables this node takes changes for, parents before children (foreign keys among
     * them), each as the donor has it.
     */
    List<TableInfo> replicated(Connection reader, Dialect donorDialect, String donorHome, String donorLog,
            ApplyTrust trust) throws SQLException {
        DatabaseMetaData md = reader.getMetaData();
        Map<String, TableInfo> found = new LinkedHashMap<>();
        // where a schema is a database (MariaDB/MySQL), the node is its own database: other databases
        // of the server are other applications' (or other nodes')
        String only = donorDialect.schemasAreCatalogs() ? donorHome : null;
        try (ResultSet rs = md.getTables(only, null, "%", new String[] {"TABLE"})) {
            while (rs.next()) {
                String schema = donorDialect.schemasAreCatalogs() ? rs.getString("TABLE_CAT") : rs.getString("TABLE_SCHEM");
                if (only != null && !only.equals(schema)) continue;
                String name = rs.getString("TABLE_NAME");
                if (schema != null && schema.equalsIgnoreCase(donorLog)) continue;
                if (trust.tableRefusal(schema, name) != null) continue;
                TableCatalog.load(reader, donorDialect, schema, name, null)
                        .ifPresent(t -> found.put(JoinState.key(schema, name), t));
            }
        }
        return parentsFirst(md, donorDialect, found);
    }

    private static List<TableInfo> parentsFirst(DatabaseMetaData md, Dialect dialect, Map<String, TableInfo> tables)
            throws SQLException {
        Map<String, Set<String>> parents = new LinkedHashMap<>();
        for (Map.Entry<String, TableInfo> e : tables.entrySet()) {
            Set<String> of = new LinkedHashSet<>();
            TableInfo t = e.getValue();
            String catalog = dialect.schemasAreCatalogs() ? t.schema() : null;
            String schema = dialect.schemasAreCatalogs() ? null : t.schema();
            try (ResultSet rs = md.getImportedKeys(catalog, schema, t.name())) {
                while (rs.next()) {
                    String ps = dialect.schemasAreCatalogs() ? rs.getString("PKTABLE_CAT") : rs.getString("PKTABLE_SCHEM");
                    String parent = JoinState.key(ps == null ? t.schema() : ps, rs.getString("PKTABLE_NAME"));
                    if (!parent.equals(e.getKey()) && tables.containsKey(parent)) of.add(parent);
                }
            }
            parents.put(e.getKey(), of);
        }
        List<TableInfo> ordered = new ArrayList<>();
        Set<String> placed = new LinkedHashSet<>();
        while (placed.size() < tables.size()) {
            boolean progress = false;
            for (Map.Entry<String, Set<String>> e : parents.entrySet()) {
                if (placed.contains(e.getKey()) || !placed.containsAll(e.getValue())) continue;
                placed.add(e.getKey());
                ordered.add(tables.get(e.getKey()));
                progress = true;
            }
            if (!progress) { // a cycle of foreign keys: the rest in any order (the database will say)
                for (String k : parents.keySet()) if (placed.add(k)) ordered.add(tables.get(k));
            }
        }
        return ordered;
    }

    /**
     * Each donor table's counterpart here (null: missing). A table that holds rows the join did not
     * put there is refused unless {@code replace}: checked before anything changes.
     */
    List<TableMap.LocalTable> check(Connection local, List<TableInfo> tables, TableMap localTables,
            Map<String, String> done) throws SQLException {
        List<String> holdingRows = new ArrayList<>();
        List<TableMap.LocalTable> existing = new ArrayList<>();
        for (TableInfo t : tables) {
            TableMap.LocalTable here = resolve(localTables, t).orElse(null);
            existing.add(here);
            if (here == null) continue;
            if (done.containsKey(JoinState.key(here.info().schema(), here.info().name()))) continue; // the join's own rows
            if (holdsRows(local, here)) holdingRows.add(here.sql());
        }
        local.commit();
        if (!holdingRows.isEmpty() && !replace) {
            throw SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE.exception("Cannot join " + node.name() + " from " + donor
                    + ": " + String.join(", ", holdingRows) + (holdingRows.size() == 1 ? " holds" : " hold") + " rows here;"
                    + " a join copies every replicated table into empty ones. Empty them, or join with --replace to"
                    + " have the join empty them");
        }
        return existing;
    }

    /**
     * Creates the missing tables (their foreign keys recorded first, added after the copy), and with
     * {@code replace} empties the others, children first. Returns every table's counterpart here.
     */
    List<TableMap.LocalTable> prepare(Connection local, Connection reader, Dialect donorDialect,
            String donorHome, List<TableInfo> tables, List<TableMap.LocalTable> existing, TableMap localTables)
            throws SQLException {
        List<TableCreation.TablePlan> plans = new ArrayList<>();
        for (int i = 0; i < tables.size(); i++) {
            if (existing.get(i) != null) continue;
            TableInfo t = tables.get(i);
            plans.add(TableCreation.plan(reader, donorDialect, t.schema(), t.name(), node.dialect(),
                    TableMap.mapSchema(t.schema(), donorHome, node.homeSchema())));
        }
        for (TableCreation.TablePlan plan : plans) {
            state.constraints(local, plan.localTable().toLowerCase(Locale.ROOT), donor, plan.constraints());
            local.commit();
            run(local, plan.createTable());
            LOG.info("jdbc:repl: " + node.name() + " created " + plan.localTable() + " as " + donor + " has it"
                    + (plan.notes().isEmpty() ? "" : "; " + String.join("; ", plan.notes())));
        }
        if (replace) {
            for (int i = existing.size() - 1; i >= 0; i--) {
                if (existing.get(i) != null) delete(local, existing.get(i));
            }
        }
        List<TableMap.LocalTable> out = new ArrayList<>();
        for (int i = 0; i < tables.size(); i++) {
            TableMap.LocalTable t = existing.get(i);
            if (t == null) {
                localTables.forget(tables.get(i).schema(), tables.get(i).name());
                t = localTables.resolve(tables.get(i).schema(), tables.get(i).name());
            }
            out.add(t);
        }
        local.commit();
        return out;
    }

    private static Optional<TableMap.LocalTable> resolve(TableMap tables, TableInfo donorTable) throws SQLException {
        try {
            return Optional.of(tables.resolve(donorTable.schema(), donorTable.name()));
        } catch (SQLException e) {
            if (SqlState.UNDEFINED_TABLE.is(e.getSQLState())) return Optional.empty();
            throw e;
        }
    }

    private static boolean holdsRows(Connection local, TableMap.LocalTable table) throws SQLException {
        try (Statement s = local.createStatement()) {
            s.setMaxRows(1);
            try (ResultSet rs = s.executeQuery("SELECT 1 FROM " + table.sql())) {
                return rs.next();
            }
        }
    }

    static void delete(Connection local, TableMap.LocalTable table) throws SQLException {
        try (Statement s = local.createStatement()) {
            s.executeUpdate("DELETE FROM " + table.sql());
        }
    }

    private static void run(Connection local, List<String> statements) throws SQLException {
        try (Statement s = local.createStatement()) {
            for (String sql : statements) s.execute(sql);
        }
        local.commit();
    }
}
