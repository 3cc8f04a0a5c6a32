package io.jdbcrepl.cli;

import io.jdbcrepl.api.NodeStatus;
import io.jdbcrepl.api.PeerStatus;
import io.jdbcrepl.apply.InboundServer;
import io.jdbcrepl.apply.NodeAdmin;
import io.jdbcrepl.apply.Outage;
import io.jdbcrepl.dialect.Dialect;
import io.jdbcrepl.config.DurationText;
import io.jdbcrepl.config.InstallMode;
import io.jdbcrepl.config.ReplConfig;
import io.jdbcrepl.intercept.SqlState;
import io.jdbcrepl.log.ChangeLogSchema;
import io.jdbcrepl.log.DriverSchema;
import io.jdbcrepl.log.Grants;
import io.jdbcrepl.log.SchemaInstaller;
import io.jdbcrepl.node.TableCatalog;
import io.jdbcrepl.lcr.Json;
import io.jdbcrepl.logging.DriverLog;
import io.jdbcrepl.node.Node;
import io.jdbcrepl.node.VendorDriver;

import java.io.PrintStream;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * The CLI's apply-side commands: {@code install}, {@code wait}, {@code status} and {@code apply}.
 * They reach the node through its configuration, not through a {@code jdbc:repl:} connection, so
 * that none of them but {@code apply} starts an inbound server.
 */
final class ApplyCommands {

    private static final DriverLog LOG = DriverLog.of(ApplyCommands.class);

    private ApplyCommands() {
    }

    static Node node(Invocation invocation) throws SQLException {
        ReplConfig config = config(invocation);
        try (Connection raw = VendorDriver.open(config)) {
            return Node.of(config, raw, () -> VendorDriver.open(config));
        }
    }

    private static ReplConfig config(Invocation invocation) throws SQLException {
        Properties info = new Properties();
        if (invocation.value(Option.USER.name()) != null) info.setProperty("user", invocation.value(Option.USER.name()));
        if (invocation.value(Option.PASSWORD.name()) != null) {
            info.setProperty("password", invocation.value(Option.PASSWORD.name()));
        }
        ReplConfig config = ConfigurationException.load(invocation.url(), info);
        if (!config.replicationEnabled()) {
            throw SqlState.INVALID_PARAMETER_VALUE.exception("the URL names no node: add repl.node=<name> to its query string");
        }
        return config;
    }

    static int install(Invocation invocation) throws SQLException {
        if (invocation.flag("--grants")) return grants(invocation);
        // whatever repl.install says: this is the command that its messages name
        ReplConfig config = config(invocation);
        Dialect dialect = Dialect.forUrl(config.delegateUrl());
        try (Connection raw = VendorDriver.open(config)) {
            String schema = DriverSchema.resolve(dialect, config.schema().orElse(null), raw);
            new SchemaInstaller(dialect, new ChangeLogSchema(dialect, schema)).install(raw, InstallMode.AUTO);
        }
        Node node = node(invocation); // checks the rest of the configuration, as a connection would
        invocation.out.println("The driver's tables are in schema " + node.logSchema() + " of node " + node.name() + ".");
        return ExitCode.OK;
    }

    /** {@code install --grants}: reads the vendor and the schema names, changes nothing, prints the statements. */
    private static int grants(Invocation invocation) throws SQLException {
        ReplConfig config = config(invocation);
        Dialect dialect = Dialect.forUrl(config.delegateUrl());
        String driverSchema;
        String database;
        String home;
        try (Connection raw = VendorDriver.open(config)) {
            driverSchema = DriverSchema.resolve(dialect, config.schema().orElse(null), raw);
            home = TableCatalog.currentSchema(raw, dialect);
            database = raw.getCatalog();
        }
        Grants grants = new Grants(dialect, driverSchema, database, home);
        for (String line : grants.statements(config.node().orElseThrow(), userOption(invocation, "--app-user", "repl_app"),
                userOption(invocation, "--apply-user", "repl_apply"), userOption(invocation, "--reader-user", "repl_reader"))) {
            invocation.out.println(line);
        }
        return ExitCode.OK;
    }

    private static String userOption(Invocation invocation, String option, String fallback) throws SQLException {
        String value = invocation.value(option);
        if (value == null) return fallback;
        if (value.isBlank() || value.chars().anyMatch(c -> c == '\'' || c == '"' || c == '`' || c == ';' || Character.isWhitespace(c))) {
            throw SqlState.INVALID_PARAMETER_VALUE.exception(
                    option + " '" + value + "' is not a user name: no quotes, blanks or semicolons");
        }
        return value;
    }

    static int await(Invocation invocation) throws SQLException, UsageException {
        Node node = node(invocation);
        String timeoutText = invocation.value("--timeout") == null ? DurationText.of(Commands.DEFAULT_WAIT_TIMEOUT)
                : invocation.value("--timeout").trim(); // as the user wrote it
        try {
            new NodeAdmin(node).waitForPeers(invocation.duration("--timeout", Commands.DEFAULT_WAIT_TIMEOUT), timeoutText,
                    Commands.NO_APPLIER_GRACE);
        } catch (SQLTimeoutException e) {
            invocation.err.println("jdbc-repl: wait: " + Main.oneLine(e.getMessage()));
            return ExitCode.FAILED;
        }
        invocation.out.println("Node " + node.name() + " has applied everything its peers "
                + node.config().peers() + " had committed.");
        return ExitCode.OK;
    }

    static int status(Invocation invocation) throws SQLException, UsageException {
        NodeAdmin admin = new NodeAdmin(node(invocation));
        if (invocation.flag("--watch")) {
            int seconds = invocation.integer("--watch", StatusWatch.DEFAULT_SECONDS, 1, 86_400);
            int count = invocation.integer("--count", 0, 1, Integer.MAX_VALUE);
            return new StatusWatch(invocation.out, StatusWatch.isTerminal(invocation.out), seconds, count)
                    .run(admin::status, ApplyCommands::print);
        }
        NodeStatus status = admin.status();
        if (invocation.flag(Option.JSON.name())) {
            invocation.out.println(Json.write(json(status)));
        } else {
            print(status, invocation.out);
        }
        return ExitCode.OK;
    }

    /** {@code --watch} goes without {@code --json}; {@code --count} with {@code --watch}; their values are whole seconds and a count. */
    static void checkStatus(Invocation invocation) throws UsageException {
        boolean watch = invocation.flag("--watch");
        if (watch && invocation.flag(Option.JSON.name())) {
            throw new UsageException("'status' takes --watch or --json, not both");
        }
        if (!watch && invocation.value("--count") != null) {
            throw new UsageException("option '--count' goes with --watch");
        }
        invocation.integer("--watch", StatusWatch.DEFAULT_SECONDS, 1, 86_400);
        invocation.integer("--count", 0, 1, Integer.MAX_VALUE);
    }

    private static void print(NodeStatus status, PrintStream out) {
        out.println("Node " + status.node());
        if (status.peers().isEmpty()) {
            out.println("No peers to apply from: the URL sets no repl.peers.");
        } else {
            // each column one fact, the same whichever process asks (the applier may run in another)
            out.printf("%-12s %-12s %10s %8s %8s %11s  %s%n", "PEER", "STATE", "LAG(TX)", "LAG(S)", "IDLE(S)", "ERROR_QUEUE",
                    "APPLIED");
        }
        for (PeerStatus p : status.peers()) {
            out.printf("%-12s %-12s %10d %8d %8s %11d  %s%n", p.peer(), p.state(), p.lagTransactions(), p.lagSeconds(),
                    p.secondsSinceApplied() < 0 ? "-" : Long.toString(p.secondsSinceApplied()), p.queueDepth(),
                    p.positionApplied() == null ? "-" : p.positionApplied());
            if (p.lastError() != null) out.println("  last error: " + p.lastError());
            if (p.subscribeDenied() != null) out.println("  purge at " + p.peer() + " not permitted: " + p.subscribeDenied());
        }
        if (!status.droppedSubscribers().isEmpty()) {
            out.println("Dropped subscribers (silent longer than repl.retention): " + String.join(", ", status.droppedSubscribers()));
        }
        if (status.purgeBlocked() != null) out.println("Purge blocked: " + status.purgeBlocked());
        if (!status.keylessTables().isEmpty()) {
            out.println("Tables without primary key, replicated by every comparable column: "
                    + String.join(", ", status.keylessTables()));
        }
        for (String warning : status.keyWarnings()) out.println("Generated keys: " + warning);
    }

    private static Map<String, Object> json(NodeStatus status) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("node", status.node());
        out.put("peers", status.peers().stream().map(p -> {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("peer", p.peer());
            m.put("state", p.state());
            m.put("positionRead", p.positionRead());
            m.put("positionApplied", p.positionApplied());
            m.put("lagTransactions", new java.math.BigDecimal(p.lagTransactions()));
            m.put("lagSeconds", new java.math.BigDecimal(p.lagSeconds()));
            m.put("queueDepth", new java.math.BigDecimal(p.queueDepth()));
            m.put("errorCount", new java.math.BigDecimal(p.errorCount()));
            m.put("secondsSinceApplied", new java.math.BigDecimal(p.secondsSinceApplied()));
            m.put("lastError", p.lastError());
            m.put("subscribeDenied", p.subscribeDenied());
            return m;
        }).toList());
        out.put("droppedSubscribers", List.copyOf(status.droppedSubscribers()));
        out.put("keylessTables", List.copyOf(status.keylessTables()));
        out.put("keyWarnings", List.copyOf(status.keyWarnings()));
        out.put("purgeBlocked", status.purgeBlocked());
        return out;
    }

    /**
     * Runs the inbound server until stopped. Like a service, it waits for its own database when that
     * is down at start (retrying with backoff, the outage logged as the appliers log theirs); a
     * configuration that cannot work (wrong credentials, an unknown database) fails at once.
     */
    static int apply(Invocation invocation) throws SQLException, InterruptedException {
        ReplConfig config = config(invocation);
        Node node;
        try {
            node = Outage.retry(LOG, "starting the apply side of " + config.node().orElseThrow(), () -> {
                try (Connection raw = VendorDriver.open(config)) {
                    Node started = Node.of(config, raw, () -> VendorDriver.open(config));
                    io.jdbcrepl.keys.KeyArrangement.atFirstConnect(started, raw); // SPEC 8.2, as a connection would
                    return started;
                }
            });
        } catch (InterruptedException stopped) {
            return ExitCode.OK; // stopped before its database came up
        }
        if (node.config().peers().isEmpty()) {
            throw SqlState.INVALID_PARAMETER_VALUE.exception("node " + node.name() + " has no repl.peers: nothing to apply from");
        }
        Node.Lease running = node.lease(); // the command is the node's user: no connection's linger stops it
        InboundServer server = InboundServer.ensureStarted(node);
        Thread hook = new Thread(server::stop, "jdbc-repl-apply-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        invocation.out.println("Applying the changes of " + node.config().peers() + " at " + node.name()
                + " until interrupted.");
        try {
            server.join();
        } finally {
            running.close();
            server.stop();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // the hook runs already
            }
        }
        return ExitCode.OK;
    }
}
