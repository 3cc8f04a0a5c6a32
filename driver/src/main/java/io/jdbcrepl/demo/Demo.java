package io.jdbcrepl.demo;

import io.jdbcrepl.lcr.Json;
import io.jdbcrepl.verify.TableVerifier;

import java.io.PrintStream;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The demo of SPEC 7: nodes that replicate to each other (embedded H2 by default), the seed's
 * salary conflict, then writers on every node colliding on purpose for a while, and a summary:
 * transactions, conflicts by handler, the error queue, lag, and whether the nodes converged as
 * their handlers promise (the exit status says it).
 */
public final class Demo {

    /**
     * @param nodes   how many embedded nodes (ignored when {@code urls} names the databases)
     * @param seconds how long the writers run
     * @param urls    {@code jdbc:repl:} URLs of the databases to use instead of embedded H2, one per node
     * @param live    rewrite one progress line in place (a terminal) rather than print one per second
     * @param program how the command line is started ({@code java -jar …/jdbc-repl-driver-1.0.jar}), for
     *                the commands the demo prints at its end
     */
    public record Options(int nodes, int seconds, List<String> urls, String user, String password, boolean json,
            boolean live, String program) {
    }

    /** How fast each node's application writes, and with how many threads. */
    static final double TRANSACTIONS_PER_SECOND_PER_NODE = 150;
    static final int WRITERS_PER_NODE = 2;
    private static final Duration CATCH_UP = Duration.ofSeconds(120);

    private final Options options;
    private final PrintStream out;
    private final DemoCluster cluster;
    private final boolean text;

    private Demo(Options options, PrintStream out, DemoCluster cluster) {
        this.options = options;
        this.out = out;
        this.cluster = cluster;
        this.text = !options.json();
    }

    /** Runs the demo; returns 0 when the nodes converged as the handlers promise, 1 otherwise. */
    public static int run(Options options, PrintStream out) throws SQLException, InterruptedException {
        DemoCluster cluster = options.urls().isEmpty() ? DemoCluster.embedded(options.nodes())
                : DemoCluster.of(options.urls(), options.user(), options.password());
        try (cluster) {
            return new Demo(options, out, cluster).run();
        }
    }

    private int run() throws SQLException, InterruptedException {
        int n = cluster.size();
        if (cluster.embedded()) {
            say("jdbc:repl demo: " + n + " nodes (" + cluster.describe(0) + "), each applying the others' changes;"
                    + " writers on every node collide on purpose for " + options.seconds() + " s.");
        } else {
            say("jdbc:repl demo: " + n + " nodes, each applying the others' changes; writers on every node collide"
                    + " on purpose for " + options.seconds() + " s:");
            for (int i = 0; i < n; i++) {
                say("  " + cluster.node(i).name() + " " + cluster.describe(i) + " (" + cluster.shownUrl(i) + ")");
            }
            say("The demo_* tables and the driver's state (its repl_* tables) on these databases start afresh.");
        }
        say("");
        cluster.createTables();
        for (int i = 0; i < n; i++) cluster.open(i).close(); // installs the driver's tables, as an application's first connection does
        DemoReport.Baseline baseline = DemoReport.baseline(cluster);

        Map<String, Object> json = new LinkedHashMap<>();
        boolean seedOk = seedExample(json);

        DemoWorkload workload = new DemoWorkload(cluster, WRITERS_PER_NODE, TRANSACTIONS_PER_SECOND_PER_NODE);
        LagProbe lag = new LagProbe(cluster);
        workload.start();
        lag.start();
        long started = System.nanoTime();
        say("Writing: counters (DELTA), salaries (MAXIMUM on a maintained timestamp), orders (last writer wins,"
                + " deletes win, lost updates RECORDed), badges (the first claim wins):");
        progress(workload, lag, baseline, started);
        workload.stop();
        lag.stop();
        long stopped = System.nanoTime();
        for (int i = 0; i < n; i++) {
            try {
                cluster.admin(i).waitForPeers(CATCH_UP);
            } catch (SQLTimeoutException e) {
                say("Node " + cluster.node(i).name() + " did not catch up within " + CATCH_UP.toSeconds() + " s: " + e.getMessage());
            }
        }
        long caughtUpMillis = (System.nanoTime() - stopped) / 1_000_000;
        return summary(workload, lag, baseline, caughtUpMillis, seedOk, json);
    }

    /**
     * The seed's example (SPEC 5.3): salary 4400 everywhere; n1 sets 4900, then n2 sets 5000,
     * both committed before any node applies; with MAXIMUM on the maintained timestamp every
     * node ends at 5000. The inbound servers start only afterwards, so the conflict is certain.
     */
    private boolean seedExample(Map<String, Object> json) throws SQLException {
        say("The seed's salary example: employee " + DemoCluster.SEED_EMPLOYEE + " earns 4400 on every node.");
        setSeedSalary(0, "4900");
        setSeedSalary(1, "5000");
        say("  n1 sets 4900, then n2 sets 5000; both commit before either node has applied the other's change.");
        for (int i = 0; i < cluster.size(); i++) cluster.admin(i).startApply();
        for (int i = 0; i < cluster.size(); i++) cluster.admin(i).waitForPeers(CATCH_UP);
        List<String> after = new ArrayList<>();
        boolean ok = true;
        Map<String, Object> salaries = new LinkedHashMap<>();
        for (int i = 0; i < cluster.size(); i++) {
            String salary = DemoReport.seedSalary(cluster, i);
            salaries.put(cluster.node(i).name(), salary);
            after.add(cluster.node(i).name() + " " + salary);
            ok &= salary.equals("5000");
        }
        say("  after apply: " + String.join(", ", after) + "   (handler salary_lww: MAXIMUM on updated_at,"
                + " which the driver maintains: the later change wins)" + (ok ? "" : "   NOT CONVERGED"));
        say("");
        json.put("seedExample", Map.of("expected", "5000", "salaries", salaries, "ok", ok));
        return ok;
    }

    private void setSeedSalary(int node, String salary) throws SQLException {
        try (Connection c = cluster.open(node); Statement s = c.createStatement()) {
            s.executeUpdate("UPDATE demo_employees SET salary = " + salary + " WHERE employee_id = "
                    + DemoCluster.SEED_EMPLOYEE);
        }
    }

    private void progress(DemoWorkload workload, LagProbe lag, DemoReport.Baseline baseline, long started)
            throws SQLException, InterruptedException {
        long end = started + options.seconds() * 1_000_000_000L;
        int tick = 0;
        while (System.nanoTime() < end && workload.failure() == null) {
            Thread.sleep(Math.max(1, Math.min(1000, (end - System.nanoTime()) / 1_000_000)));
            tick++;
            if (!text) continue;
            StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "  %3ds  committed", tick));
            long conflicts = 0;
            for (int i = 0; i < cluster.size(); i++) {
                line.append(String.format(Locale.ROOT, " %s %,d", cluster.node(i).name(), workload.committed(i)));
                conflicts += DemoReport.conflicts(cluster, baseline, i);
            }
            double median = lag.median();
            line.append(String.format(Locale.ROOT, "   conflicts %,d   lag p50 %s", conflicts,
                    Double.isNaN(median) ? "-" : String.format(Locale.ROOT, "%.1f ms", median)));
            if (options.live()) {
                out.print("\r" + line + "   ");
                out.flush();
            } else {
                out.println(line);
            }
        }
        if (text && options.live()) out.println();
    }

    private int summary(DemoWorkload workload, LagProbe lag, DemoReport.Baseline baseline, long caughtUpMillis,
            boolean seedOk, Map<String, Object> json) throws SQLException {
        int n = cluster.size();
        List<String> problems = new ArrayList<>();
        if (!seedOk) problems.add("the seed's example did not end at 5000 on every node");
        if (workload.failure() != null) problems.add("a writer failed: " + workload.failure());
        if (lag.failure() != null) problems.add("the lag probe failed: " + lag.failure());

        say("");
        say("Transactions committed by the applications:");
        say(String.format(Locale.ROOT, "  %-5s %-22s %10s %10s %10s %12s", "node", "database", "committed",
                "refused", "conflicts", "error queue"));
        List<Object> nodesJson = new ArrayList<>();
        long recordedTotal = 0;
        for (int i = 0; i < n; i++) {
            long conflicts = DemoReport.conflicts(cluster, baseline, i);
            long errors = DemoReport.errors(cluster, baseline, i);
            List<String> failed = DemoReport.failedTransactions(cluster, baseline, i);
            recordedTotal += errors - failed.size();
            for (String f : failed) problems.add(cluster.node(i).name() + " queued a transaction " + f);
            say(String.format(Locale.ROOT, "  %-5s %-22s %,10d %,10d %,10d %,12d", cluster.node(i).name(),
                    cluster.describe(i), workload.committed(i), workload.refused(i), conflicts, errors));
            Map<String, Object> node = new LinkedHashMap<>();
            node.put("node", cluster.node(i).name());
            node.put("database", cluster.describe(i));
            node.put("committed", workload.committed(i));
            node.put("refused", workload.refused(i));
            node.put("conflicts", conflicts);
            node.put("errorQueue", errors);
            node.put("failedTransactions", failed.size());
            nodesJson.add(node);
        }
        say("  (refused: rolled back by the node's own database, such as a badge it had given out already)");
        json.put("nodes", nodesJson);

        List<DemoReport.ConflictLine> lines = DemoReport.conflictLines(cluster, baseline);
        say("");
        say("Conflicts met while applying, by table, kind and handler (all nodes):");
        StringBuilder header = new StringBuilder(String.format(Locale.ROOT, "  %-15s %-10s %-17s %-14s %-17s",
                "table", "kind", "operation", "handler", "outcome"));
        for (int i = 0; i < n; i++) header.append(String.format(Locale.ROOT, " %7s", cluster.node(i).name()));
        header.append(String.format(Locale.ROOT, " %8s", "total"));
        say(header.toString());
        List<Object> conflictsJson = new ArrayList<>();
        for (DemoReport.ConflictLine l : lines) {
            StringBuilder row = new StringBuilder(String.format(Locale.ROOT, "  %-15s %-10s %-17s %-14s %-17s",
                    l.table(), lower(l.kind()), l.operation() + " " + (l.conflictType() == null ? "" : l.conflictType()),
                    l.handler(), lower(l.outcome())));
            for (long c : l.perNode()) row.append(String.format(Locale.ROOT, " %,7d", c));
            row.append(String.format(Locale.ROOT, " %,8d", l.total()));
            say(row.toString());
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("table", l.table());
            m.put("kind", l.kind());
            m.put("operation", l.operation());
            m.put("conflict", l.conflictType());
            m.put("handler", l.handler());
            m.put("handlerType", l.handlerType());
            m.put("outcome", l.outcome());
            m.put("total", l.total());
            conflictsJson.add(m);
        }
        if (lines.isEmpty()) say("  none (run longer, or the peers applied too fast to collide)");
        json.put("conflicts", conflictsJson);
        say("  Handlers: " + handlerLegend());
        say("");
        say("Error queue: " + recordedTotal + " LCRs recorded by lost_update (an update of an order that another node"
                + " deleted) for a person to look at: 'errors list' and 'errors show' on a node.");

        double[] p = lag.percentiles();
        Map<String, Object> lagJson = new LinkedHashMap<>();
        if (p.length == 0) {
            say("Replication lag: no heartbeat arrived.");
            problems.add("no heartbeat reached a peer");
        } else {
            say(String.format(Locale.ROOT, "Replication lag (commit on one node until visible on another, %,d samples):"
                    + " p50 %.1f ms, p99 %.1f ms, max %.1f ms; all caught up %,d ms after the writers stopped.",
                    lag.samples(), p[0], p[1], p[2], caughtUpMillis));
            lagJson.put("samples", lag.samples());
            lagJson.put("p50Millis", millis(p[0]));
            lagJson.put("p99Millis", millis(p[1]));
            lagJson.put("maxMillis", millis(p[2]));
        }
        lagJson.put("catchUpMillis", caughtUpMillis);
        json.put("lag", lagJson);

        say("");
        say("Convergence (rows and checksum of every table, per node):");
        List<Object> tablesJson = new ArrayList<>();
        for (TableVerifier.Report r : DemoReport.compareTables(cluster)) {
            StringBuilder row = new StringBuilder(String.format(Locale.ROOT, "  %-15s", r.table().toLowerCase(Locale.ROOT)));
            for (TableVerifier.NodeSummary s : r.nodes()) {
                row.append(String.format(Locale.ROOT, "  %s %,5d rows %s", s.node(), s.rows(),
                        s.checksum().substring(0, Math.min(8, s.checksum().length()))));
            }
            row.append(r.agree() ? "   identical" : "   " + r.differingKeys() + " keys DIFFER");
            say(row.toString());
            if (!r.agree()) {
                problems.add(r.table().toLowerCase(Locale.ROOT) + ": " + r.differingKeys()
                        + " keys differ across the nodes ('verify --table' lists them)");
                for (TableVerifier.Difference d : r.differences().subList(0, Math.min(5, r.differences().size()))) {
                    say("      " + String.join(", ", r.keyColumns()).toLowerCase(Locale.ROOT) + " " + String.join(", ", d.key())
                            + (d.kind() == TableVerifier.Kind.MISSING ? ": missing on " : ": differs on ")
                            + String.join(", ", d.nodes()) + (d.columns().isEmpty() ? "" : " in " + d.columns()));
                }
            }
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("table", r.table().toLowerCase(Locale.ROOT));
            m.put("agree", r.agree());
            m.put("differingKeys", r.differingKeys());
            m.put("rows", r.nodes().stream().map(s -> s.rows()).toList());
            tablesJson.add(m);
        }
        json.put("tables", tablesJson);
        List<String> totals = new ArrayList<>();
        List<Object> totalsJson = new ArrayList<>();
        boolean countersOk = true;
        for (int i = 0; i < n; i++) {
            long total = DemoReport.counterTotal(cluster, i);
            totals.add(cluster.node(i).name() + " " + String.format(Locale.ROOT, "%,d", total));
            totalsJson.add(total);
            countersOk &= total == workload.increments();
        }
        say(String.format(Locale.ROOT, "  counters: %,d increments committed on all nodes; sum of hits %s%s",
                workload.increments(), String.join(", ", totals), countersOk ? "   every increment counted once" : "   WRONG"));
        if (!countersOk) problems.add("the counters do not add up to the " + workload.increments() + " increments made");
        json.put("counters", Map.of("increments", workload.increments(), "sums", totalsJson, "ok", countersOk));

        boolean converged = problems.isEmpty();
        json.put("converged", converged);
        json.put("problems", problems);
        say("");
        if (converged) {
            say("Converged: every table is identical on every node, every counter increment counted exactly once, and"
                    + " the error queue holds only what RECORD put there.");
        } else {
            say("NOT CONVERGED:");
            for (String problem : problems) say("  - " + problem);
        }
        inspect(json);
        if (!text) out.println(Json.write(json));
        return converged ? 0 : 1;
    }

    /**
     * The command lines that show node n1 afterwards: its peers and apply progress, its error queue.
     * Embedded databases are gone when the demo ends, so only nodes named with --url get them.
     */
    private void inspect(Map<String, Object> json) {
        say("");
        if (cluster.embedded()) {
            say("The nodes' in-memory databases end with the demo. To look at a node afterwards with the status and"
                    + " 'errors list' commands, run the demo on databases of your own with --url, once per node.");
            return;
        }
        String url = shellQuote(cluster.inspectUrl(0));
        String status = options.program() + " status --url " + url + credentials();
        String errors = options.program() + " errors list --url " + url + credentials();
        say("Look at node " + cluster.node(0).name() + " afterwards, its peers and apply progress, then its error queue:");
        say("  " + status);
        say("  " + errors);
        if (status.contains("****")) say("  (put the password in place of ****)");
        json.put("commands", Map.of("status", status, "errorsList", errors));
    }

    /** The --user and --password the demo was given; the password never printed. */
    private String credentials() {
        return (options.user() == null ? "" : " --user " + shellQuote(options.user()))
                + (options.password() == null ? "" : " --password '****'");
    }

    /** A single-quoted POSIX shell word. */
    static String shellQuote(String word) {
        return "'" + word.replace("'", "'\\''") + "'";
    }

    private static String handlerLegend() {
        return "hits_delta DELTA, salary_lww MAXIMUM, order_lww MAXIMUM, delete_wins OVERWRITE, lost_update RECORD,"
                + " double_delete IGNORE, first_claim MINIMUM; a tie of their times: the other values decide (TieBreak)";
    }

    private static BigDecimal millis(double value) {
        return BigDecimal.valueOf(value).setScale(1, java.math.RoundingMode.HALF_UP);
    }

    private void say(String line) {
        if (text) out.println(line);
    }

    private static String lower(String text) {
        return text == null ? "-" : text.toLowerCase(Locale.ROOT).replace('_', ' ');
    }
}
