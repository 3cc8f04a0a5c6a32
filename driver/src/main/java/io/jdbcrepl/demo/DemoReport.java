package io.jdbcrepl.demo;

import io.jdbcrepl.conflict.ConflictResolver;
import io.jdbcrepl.verify.TableVerifier;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What the demo reads back from the nodes' own tables: the conflicts the inbound servers met
 * ({@code repl_conflict}), the error queue ({@code repl_error}), and the comparison of every demo
 * table across the nodes. Only rows newer than {@link #baseline} count, so that a database used
 * for an earlier run reports this one.
 */
final class DemoReport {

    /** One line of the conflict table: how often a handler met a kind of conflict, per node. */
    record ConflictLine(String table, String kind, String operation, String conflictType, String handler,
            String handlerType, String outcome, long[] perNode) {

        long total() {
            long sum = 0;
            for (long n : perNode) sum += n;
            return sum;
        }
    }

    /** Per node, the highest ids of repl_conflict and repl_error before the run. */
    record Baseline(long[] conflict, long[] error) {
    }

    private DemoReport() {
    }

    static Baseline baseline(DemoCluster cluster) throws SQLException {
        long[] conflict = new long[cluster.size()];
        long[] error = new long[cluster.size()];
        for (int i = 0; i < cluster.size(); i++) {
            Connection c = cluster.reader(i);
            conflict[i] = single(c, "SELECT COALESCE(MAX(id), 0) FROM " + cluster.driverTable(i, "repl_conflict"));
            error[i] = single(c, "SELECT COALESCE(MAX(id), 0) FROM " + cluster.driverTable(i, "repl_error"));
        }
        return new Baseline(conflict, error);
    }

    /** Conflicts detected on node i since the baseline. */
    static long conflicts(DemoCluster cluster, Baseline base, int i) throws SQLException {
        return single(cluster.reader(i), "SELECT COUNT(*) FROM " + cluster.driverTable(i, "repl_conflict")
                + " WHERE id > " + base.conflict()[i]);
    }

    /** Error queue entries made on node i since the baseline. */
    static long errors(DemoCluster cluster, Baseline base, int i) throws SQLException {
        return single(cluster.reader(i), "SELECT COUNT(*) FROM " + cluster.driverTable(i, "repl_error")
                + " WHERE id > " + base.error()[i]);
    }

    /** Error queue entries of node i since the baseline that are not a RECORD handler's: failed transactions. */
    static List<String> failedTransactions(DemoCluster cluster, Baseline base, int i) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Statement s = cluster.reader(i).createStatement();
                ResultSet rs = s.executeQuery("SELECT source_database, source_transaction_id, error_code, error_message"
                        + " FROM " + cluster.driverTable(i, "repl_error") + " WHERE id > " + base.error()[i] + " ORDER BY id")) {
            while (rs.next()) {
                String message = rs.getString(4);
                if (message != null && message.contains(ConflictResolver.RECORDED_BY)) continue;
                out.add("from " + rs.getString(1) + " transaction " + rs.getString(2) + ": " + rs.getString(3)
                        + " " + message);
            }
        }
        return out;
    }

    /** The conflict table, summed over the nodes, in a stable order. */
    static List<ConflictLine> conflictLines(DemoCluster cluster, Baseline base) throws SQLException {
        Map<String, ConflictLine> lines = new LinkedHashMap<>();
        for (int i = 0; i < cluster.size(); i++) {
            try (PreparedStatement ps = cluster.reader(i).prepareStatement(
                    "SELECT table_name, conflict_kind, operation, conflict_type, handler_name, handler_type, outcome,"
                            + " COUNT(*) FROM " + cluster.driverTable(i, "repl_conflict") + " WHERE id > ? GROUP BY table_name, conflict_kind, operation,"
                            + " conflict_type, handler_name, handler_type, outcome"
                            + " ORDER BY table_name, conflict_kind, handler_name, outcome")) {
                ps.setLong(1, base.conflict()[i]);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        String table = rs.getString(1).toLowerCase(Locale.ROOT);
                        String handler = rs.getString(5) == null ? "-" : rs.getString(5).toLowerCase(Locale.ROOT);
                        String key = table + "|" + rs.getString(2) + "|" + rs.getString(3) + "|" + rs.getString(4)
                                + "|" + handler + "|" + rs.getString(7);
                        int node = i;
                        ConflictLine line = lines.computeIfAbsent(key, k -> {
                            try {
                                return new ConflictLine(table, rs.getString(2), rs.getString(3), rs.getString(4),
                                        handler, rs.getString(6), rs.getString(7), new long[cluster.size()]);
                            } catch (SQLException e) {
                                throw new IllegalStateException(e);
                            }
                        });
                        line.perNode()[node] += rs.getLong(8);
                    }
                }
            }
        }
        List<ConflictLine> sorted = new ArrayList<>(lines.values());
        sorted.sort(java.util.Comparator.comparing(ConflictLine::table).thenComparing(ConflictLine::kind)
                .thenComparing(ConflictLine::handler).thenComparing(ConflictLine::outcome));
        return sorted;
    }

    /** Every demo table compared across all nodes (TableVerifier: by key, each node read once in key order). */
    static List<TableVerifier.Report> compareTables(DemoCluster cluster) throws SQLException {
        List<Connection> open = new ArrayList<>();
        try {
            List<TableVerifier.Side> sides = new ArrayList<>();
            for (int i = 0; i < cluster.size(); i++) {
                Connection c = cluster.openRaw(i);
                open.add(c);
                sides.add(new TableVerifier.Side(cluster.node(i).name(), c, cluster.node(i).dialect()));
            }
            List<TableVerifier.Report> reports = new ArrayList<>();
            for (String table : DemoCluster.TABLES) reports.add(new TableVerifier(10).compare(sides, table));
            return reports;
        } finally {
            for (Connection c : open) {
                try {
                    c.close();
                } catch (SQLException ignored) {
                    // read everything already
                }
            }
        }
    }

    /** The sum of all counters on node i. */
    static long counterTotal(DemoCluster cluster, int i) throws SQLException {
        return single(cluster.reader(i), "SELECT COALESCE(SUM(hits), 0) FROM demo_counters");
    }

    /** The seed employee's salary on node i, as plain text (4400, 5000). */
    static String seedSalary(DemoCluster cluster, int i) throws SQLException {
        try (Statement s = cluster.reader(i).createStatement();
                ResultSet rs = s.executeQuery("SELECT salary FROM demo_employees WHERE employee_id = "
                        + DemoCluster.SEED_EMPLOYEE)) {
            return rs.next() ? rs.getBigDecimal(1).stripTrailingZeros().toPlainString() : "missing";
        }
    }

    private static long single(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
