package io.jdbcrepl.cli;

import io.jdbcrepl.dialect.Dialect;
import io.jdbcrepl.config.PeerConfig;
import io.jdbcrepl.apply.Peers;
import io.jdbcrepl.config.ReplConfig;
import io.jdbcrepl.intercept.SqlState;
import io.jdbcrepl.lcr.Json;
import io.jdbcrepl.verify.TableVerifier;
import io.jdbcrepl.verify.TableVerifier.Difference;
import io.jdbcrepl.verify.TableVerifier.NodeSummary;
import io.jdbcrepl.verify.TableVerifier.Report;

import java.io.PrintStream;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * {@code verify --url <node> --table t}: the node named by the URL and each of its peers
 * ({@code repl.peers}, reached with {@code repl.peer.<p>.*}) compared with {@link TableVerifier}.
 * Exit code 0 when they agree, 1 when rows differ.
 */
final class VerifyCommand {

    /** How many differing keys are listed; all are counted. */
    static final int LISTED = 100;

    private VerifyCommand() {
    }

    static int run(Invocation invocation) throws SQLException {
        Properties info = new Properties();
        if (invocation.value(Option.USER.name()) != null) info.setProperty("user", invocation.value(Option.USER.name()));
        if (invocation.value(Option.PASSWORD.name()) != null) info.setProperty("password", invocation.value(Option.PASSWORD.name()));
        ReplConfig config = ConfigurationException.load(invocation.url(), info);
        String node = config.node().orElseThrow(() -> SqlState.INVALID_PARAMETER_VALUE.exception(
                "the URL names no node: add repl.node=<name> to its query string"));
        if (config.peers().isEmpty()) {
            throw SqlState.INVALID_PARAMETER_VALUE.exception("verify compares node " + node + " with its peers, and its URL names none"
                    + " (add repl.peers=<names> and repl.peer.<name>.url)");
        }
        List<Connection> open = new ArrayList<>();
        try {
            List<TableVerifier.Side> sides = new ArrayList<>();
            sides.add(side(node, config.delegateUrl(), connect(node, config.delegateUrl(), config.delegateProperties()), open));
            for (String name : config.peers()) {
                PeerConfig peer = config.peer(name);
                // a black-holed peer fails after repl.peer.timeout instead of hanging (SPEC 8.7)
                sides.add(side(name, peer.url(), Peers.open(peer, config.peerTimeout()), open));
            }
            Report report = new TableVerifier(LISTED).compare(sides, invocation.value("--table"));
            if (invocation.flag(Option.JSON.name())) invocation.out.println(Json.write(json(report)));
            else print(report, invocation.out);
            return report.agree() ? ExitCode.OK : ExitCode.FAILED;
        } finally {
            for (Connection c : open) {
                try {
                    c.close();
                } catch (SQLException ignored) {
                    // closing after the report: nothing to add
                }
            }
        }
    }

    private static Connection connect(String node, String url, Properties credentials) throws SQLException {
        try {
            return DriverManager.getConnection(url, credentials);
        } catch (SQLException e) {
            throw new SQLException("Could not connect to node " + node + ": " + e.getMessage(), e.getSQLState(), e);
        }
    }

    private static TableVerifier.Side side(String node, String url, Connection c, List<Connection> open) throws SQLException {
        open.add(c);
        return new TableVerifier.Side(node, c, Dialect.forUrl(url));
    }

    static void print(Report report, PrintStream out) {
        out.println("verify " + report.table() + (report.keyless() ? " (no primary key: every comparable column, rows"
                + " counted) by " : " by key ") + String.join(", ", report.keyColumns()) + ":");
        int width = 4;
        for (NodeSummary n : report.nodes()) width = Math.max(width, n.node().length());
        out.printf("  %-" + width + "s  %12s  %s%n", "node", "rows", "checksum");
        for (NodeSummary n : report.nodes()) out.printf("  %-" + width + "s  %12d  %s%n", n.node(), n.rows(), n.checksum());
        if (report.agree()) {
            out.println("The nodes agree: every key has the same row on every node.");
            return;
        }
        out.println(report.differingKeys() + (report.differingKeys() == 1 ? " key differs" : " keys differ")
                + (report.differingKeys() > LISTED ? " (the first " + LISTED + " listed)" : "") + ":");
        for (Difference d : report.differences()) {
            String key = keyText(report.keyColumns(), d.key());
            String where = String.join(", ", d.nodes());
            out.println("  " + key + ": " + switch (d.kind()) {
                case MISSING -> "missing on " + where;
                case COUNT -> "there a different number of times on " + where;
                case DIFFERENT -> "differs on " + where + " in " + String.join(", ", d.columns());
            });
        }
    }

    private static String keyText(List<String> columns, List<String> values) {
        List<String> parts = new ArrayList<>();
        for (int i = 0; i < columns.size(); i++) parts.add(columns.get(i) + "=" + values.get(i));
        return String.join(", ", parts);
    }

    static Map<String, Object> json(Report report) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("table", report.table());
        out.put("key", report.keyColumns());
        out.put("keyless", report.keyless());
        out.put("agree", report.agree());
        out.put("differingKeys", report.differingKeys());
        List<Object> nodes = new ArrayList<>();
        for (NodeSummary n : report.nodes()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("node", n.node());
            m.put("table", n.table());
            m.put("rows", n.rows());
            m.put("checksum", n.checksum());
            nodes.add(m);
        }
        out.put("nodes", nodes);
        List<Object> differences = new ArrayList<>();
        for (Difference d : report.differences()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("key", d.key());
            m.put("kind", d.kind().name());
            m.put("nodes", d.nodes());
            m.put("columns", d.columns());
            differences.add(m);
        }
        out.put("differences", differences);
        return out;
    }
}
