package io.jdbcrepl.demo;

import io.jdbcrepl.api.ReplAdmin;
import io.jdbcrepl.dialect.Dialect;
import io.jdbcrepl.config.ReplConfig;
import io.jdbcrepl.intercept.SqlState;
import io.jdbcrepl.log.ChangeLogSchema;
import io.jdbcrepl.log.DriverSchema;

import io.jdbcrepl.config.ReplUrl;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;

/**
 * The demo's nodes n1..nk: each a {@code jdbc:repl:} URL plus the {@code repl.*} settings an
 * application would give it (node name, peers, the handlers of {@link #HANDLERS}), and the plain
 * URL its peers read it by. Embedded H2 databases by default, or the databases the user names.
 */
final class DemoCluster implements AutoCloseable {

    /** The demo's tables; the driver captures these and no others. */
    static final List<String> TABLES = List.of("demo_employees", "demo_counters", "demo_orders", "demo_badges",
            "demo_heartbeat");

    /**
     * The conflict handlers, the same on every node, as an application would write them: a
     * handler cookbook in miniature (see the README).
     */
    static final Map<String, String> HANDLERS = orderedMap(
            // the seed's salary example: last writer wins on the time the driver maintains (SPEC 5.6)
            "repl.timestamp.demo_employees", "updated_at",
            "repl.handler.salary_lww.table", "demo_employees",
            "repl.handler.salary_lww.type", "MAXIMUM",
            "repl.handler.salary_lww.columns", "salary,commission_pct,updated_at",
            "repl.handler.salary_lww.resolution", "updated_at",
            // counters: every node's increments add up
            "repl.handler.hits_delta.table", "demo_counters",
            "repl.handler.hits_delta.type", "DELTA",
            "repl.handler.hits_delta.columns", "hits",
            // orders: last writer wins, a delete wins over an update, and an update that lost to a
            // delete elsewhere is recorded for a person to look at
            "repl.timestamp.demo_orders", "updated_at",
            "repl.handler.order_lww.table", "demo_orders",
            "repl.handler.order_lww.type", "MAXIMUM",
            "repl.handler.order_lww.resolution", "updated_at",
            "repl.handler.delete_wins.table", "demo_orders",
            "repl.handler.delete_wins.operation", "DELETE",
            "repl.handler.delete_wins.type", "OVERWRITE",
            "repl.handler.lost_update.table", "demo_orders",
            "repl.handler.lost_update.conflict", "ROW_MISSING",
            "repl.handler.lost_update.type", "RECORD",
            "repl.handler.double_delete.table", "demo_orders",
            "repl.handler.double_delete.operation", "DELETE",
            "repl.handler.double_delete.conflict", "ROW_MISSING",
            "repl.handler.double_delete.type", "IGNORE",
            // badges: two nodes claim the same one; the first claim wins
            "repl.timestamp.demo_badges", "granted_at",
            "repl.handler.first_claim.table", "demo_badges",
            "repl.handler.first_claim.operation", "INSERT",
            "repl.handler.first_claim.type", "MINIMUM",
            "repl.handler.first_claim.resolution", "granted_at",
            // two versions with the same time (SPEC 5.6 can make them): the other values decide, as
            // Oracle's backup method after a timestamp one (TieBreak)
            "repl.dmlhandler.salary_tie.table", "demo_employees",
            "repl.dmlhandler.salary_tie.operation", "UPDATE",
            "repl.dmlhandler.salary_tie.class", TieBreak.class.getName(),
            "repl.dmlhandler.salary_tie.error_handler", "true",
            "repl.dmlhandler.order_tie.table", "demo_orders",
            "repl.dmlhandler.order_tie.operation", "UPDATE",
            "repl.dmlhandler.order_tie.class", TieBreak.class.getName(),
            "repl.dmlhandler.order_tie.error_handler", "true",
            "repl.dmlhandler.claim_tie.table", "demo_badges",
            "repl.dmlhandler.claim_tie.operation", "INSERT",
            "repl.dmlhandler.claim_tie.class", TieBreak.class.getName(),
            "repl.dmlhandler.claim_tie.error_handler", "true");

    /** One node: its name, the application's URL and settings, and the plain URL peers read it by. */
    record DemoNode(String name, String replUrl, String rawUrl, Properties credentials, Dialect dialect) {
    }

    private final List<DemoNode> nodes;
    private final boolean embedded;
    /** Per node, the plain connection the report reads by (the progress line reads every second); opened on first use. */
    private final Connection[] readers;
    /** Per node, its database's product and version, once read. */
    private final String[] products;

    private DemoCluster(List<DemoNode> nodes, boolean embedded) {
        this.nodes = nodes;
        this.embedded = embedded;
        this.readers = new Connection[nodes.size()];
        this.products = new String[nodes.size()];
    }

    /** {@code count} in-memory H2 databases, named apart per run so that runs in one JVM never meet. */
    static DemoCluster embedded(int count) {
        String run = UUID.randomUUID().toString().substring(0, 8);
        List<DemoNode> nodes = new ArrayList<>();
        for (int i = 1; i <= count; i++) {
            String raw = "jdbc:h2:mem:repl_demo_" + run + "_n" + i + ";DB_CLOSE_DELAY=-1";
            nodes.add(new DemoNode("n" + i, "jdbc:repl:" + raw.substring("jdbc:".length()), raw, new Properties(),
                    Dialect.ofUrl(raw).orElseThrow()));
        }
        return new DemoCluster(nodes, true);
    }

    /** The databases of {@code urls} ({@code jdbc:repl:} URLs without {@code repl.node} or {@code repl.peers}). */
    static DemoCluster of(List<String> urls, String user, String password) throws SQLException {
        List<DemoNode> nodes = new ArrayList<>();
        for (int i = 0; i < urls.size(); i++) {
            String url = urls.get(i);
            Properties credentials = new Properties();
            if (user != null) credentials.setProperty("user", user);
            if (password != null) credentials.setProperty("password", password);
            ReplConfig config = ReplConfig.load(url, credentials);
            for (String key : List.of("repl.node", "repl.peers", "repl.tables", "repl.apply")) {
                if (config.replProperties().containsKey(key)) {
                    throw SqlState.INVALID_PARAMETER_VALUE.exception(
                            "--url " + (i + 1) + " sets " + key + ": leave it out, the demo sets it"
                            + " (nodes n1..n" + urls.size() + ", each applying from all others)");
                }
            }
            String raw = config.delegateUrl();
            Dialect dialect = Dialect.forUrl(raw);
            nodes.add(new DemoNode("n" + (i + 1), url, raw, credentials, dialect));
        }
        return new DemoCluster(nodes, false);
    }

    List<DemoNode> nodes() {
        return nodes;
    }

    int size() {
        return nodes.size();
    }

    DemoNode node(int i) {
        return nodes.get(i);
    }

    boolean embedded() {
        return embedded;
    }

    /** What node i's application passes to {@code connect}: credentials and every {@code repl.*} setting. */
    Properties settings(int i) {
        DemoNode node = nodes.get(i);
        Properties p = new Properties();
        p.putAll(node.credentials());
        p.setProperty("repl.node", node.name());
        List<String> peers = new ArrayList<>();
        for (DemoNode peer : nodes) {
            if (peer == node) continue;
            peers.add(peer.name());
            p.setProperty("repl.peer." + peer.name() + ".url", peer.rawUrl());
            String user = peer.credentials().getProperty("user");
            String password = peer.credentials().getProperty("password");
            if (user != null) p.setProperty("repl.peer." + peer.name() + ".user", user);
            if (password != null) p.setProperty("repl.peer." + peer.name() + ".password", password);
        }
        p.setProperty("repl.peers", String.join(",", peers));
        p.setProperty("repl.tables", "demo_*");
        // The demo starts the inbound servers itself, after the seed's example has made its conflict.
        p.setProperty("repl.apply", "false");
        p.putAll(HANDLERS);
        return p;
    }

    /** A connection of node i's application: captured, with the demo's handlers. */
    Connection open(int i) throws SQLException {
        return DriverManager.getConnection(nodes.get(i).replUrl(), settings(i));
    }

    /** A plain connection to node i's database, past the driver (what the peers and the checks use). */
    Connection openRaw(int i) throws SQLException {
        DemoNode node = nodes.get(i);
        // a copy: a vendor driver may add to the Properties it is given (MariaDB: the URL's user)
        Properties credentials = new Properties();
        credentials.putAll(node.credentials());
        return DriverManager.getConnection(node.rawUrl(), credentials);
    }

    /** Node i's reporting connection (auto-commit, one thread: the demo's own); closed with the cluster. */
    /** A driver table of node i ({@code repl_conflict}, ...), qualified with its {@code repl.schema} for SQL on {@link #reader}. */
    String driverTable(int i, String table) throws SQLException {
        DemoNode node = nodes.get(i);
        String configured = ReplConfig.load(node.replUrl(), node.credentials()).schema().orElse(null);
        String schema = DriverSchema.resolve(node.dialect(), configured, reader(i));
        return new ChangeLogSchema(node.dialect(), schema).table(table);
    }

    Connection reader(int i) throws SQLException {
        if (readers[i] == null || readers[i].isClosed()) readers[i] = openRaw(i);
        return readers[i];
    }

    ReplAdmin admin(int i) throws SQLException {
        try (Connection c = open(i)) {
            return c.unwrap(ReplAdmin.class);
        }
    }

    /**
     * The driver's tables that hold a node's replication state: its log, what it applied from each
     * peer, its subscribers, error queue and conflict history. An earlier run, with other peers or
     * peers of another database, left rows there that this run's nodes would misread.
     */
    static final List<String> DRIVER_STATE = List.of("repl_log", "repl_tx", "repl_progress", "repl_subscriber",
            "repl_error_lcr", "repl_error", "repl_conflict", "repl_apply_lock", "repl_keys", "repl_ddl");

    /**
     * Drops and creates the demo's tables with the same first rows on every node, and empties the
     * driver's state tables that exist there ({@link #DRIVER_STATE}), past the driver: every run
     * starts from the same state, whatever ran on these databases before.
     */
    void createTables() throws SQLException {
        for (int i = 0; i < nodes.size(); i++) {
            Dialect dialect = nodes.get(i).dialect();
            try (Connection c = openRaw(i); Statement s = c.createStatement()) {
                for (String table : DRIVER_STATE) {
                    String qualified = driverTable(i, table);
                    if (exists(c, qualified)) s.execute("DELETE FROM " + qualified);
                }
                for (String table : TABLES) s.execute("DROP TABLE IF EXISTS " + table);
                for (String ddl : ddl(dialect)) s.execute(ddl);
                for (String row : firstRows()) s.execute(row);
                insertOrders(c);
                for (DemoNode n : nodes) {
                    s.execute("INSERT INTO demo_heartbeat (node, seq) VALUES ('" + n.name() + "', 0)");
                }
                if (!c.getAutoCommit()) c.commit();
            }
        }
    }

    /** Whether the table can be read; a failed probe leaves nothing to roll back (auto-commit). */
    private static boolean exists(Connection c, String table) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.executeQuery("SELECT 1 FROM " + table + " WHERE 1 = 0").close();
            return true;
        } catch (SQLException missing) {
            if (!c.getAutoCommit()) c.rollback();
            return false;
        }
    }

    private static List<String> ddl(Dialect dialect) {
        DemoDatabase database = dialect.part(DemoDatabase.class);
        String ts = database.timestampType();
        String options = database.tableOptions();
        return List.of(
                "CREATE TABLE demo_employees (employee_id INT PRIMARY KEY, first_name VARCHAR(20),"
                        + " last_name VARCHAR(25) NOT NULL, salary DECIMAL(8,2), commission_pct DECIMAL(2,2),"
                        + " department_id INT, updated_at " + ts + ")" + options,
                "CREATE TABLE demo_counters (id INT PRIMARY KEY, name VARCHAR(40) NOT NULL, hits BIGINT NOT NULL)" + options,
                "CREATE TABLE demo_orders (id BIGINT PRIMARY KEY, customer VARCHAR(40) NOT NULL,"
                        + " status VARCHAR(16) NOT NULL, amount DECIMAL(10,2) NOT NULL, updated_at " + ts + ")" + options,
                "CREATE TABLE demo_badges (code VARCHAR(40) PRIMARY KEY, holder VARCHAR(40) NOT NULL,"
                        + " granted_at " + ts + ")" + options,
                "CREATE TABLE demo_heartbeat (node VARCHAR(16) PRIMARY KEY, seq BIGINT NOT NULL)" + options);
    }

    /** Employee 200 is the seed's (salary 4400); 100..104 take the random salary updates. */
    static final int SEED_EMPLOYEE = 200;
    static final int FIRST_EMPLOYEE = 100;
    static final int EMPLOYEES = 5;
    static final int COUNTERS = 3;
    static final int FIRST_ORDERS = 1_000;

    private static List<String> firstRows() {
        List<String> rows = new ArrayList<>();
        rows.add("INSERT INTO demo_employees (employee_id, first_name, last_name, salary, commission_pct,"
                + " department_id, updated_at) VALUES (" + SEED_EMPLOYEE + ", 'Jennifer', 'Whalen', 4400, NULL, 10,"
                + " TIMESTAMP '2026-01-01 00:00:00')");
        String[] names = {"Steven King", "Neena Kochhar", "Lex De Haan", "Alexander Hunold", "Bruce Ernst"};
        for (int i = 0; i < EMPLOYEES; i++) {
            String[] name = names[i].split(" ", 2);
            rows.add("INSERT INTO demo_employees (employee_id, first_name, last_name, salary, commission_pct,"
                    + " department_id, updated_at) VALUES (" + (FIRST_EMPLOYEE + i) + ", '" + name[0] + "', '"
                    + name[1] + "', " + (5000 + 1000 * i) + ", 0.10, 90, TIMESTAMP '2026-01-01 00:00:00')");
        }
        String[] counters = {"page views", "sign-ups", "downloads"};
        for (int i = 1; i <= COUNTERS; i++) {
            rows.add("INSERT INTO demo_counters (id, name, hits) VALUES (" + i + ", '" + counters[i - 1] + "', 0)");
        }
        return rows;
    }

    private static void insertOrders(Connection c) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO demo_orders (id, customer, status, amount,"
                + " updated_at) VALUES (?, ?, 'new', ?, TIMESTAMP '2026-01-01 00:00:00')")) {
            for (int i = 1; i <= FIRST_ORDERS; i++) {
                ps.setLong(1, i);
                ps.setString(2, "customer " + i);
                ps.setBigDecimal(3, java.math.BigDecimal.valueOf(1000L * i, 2));
                ps.addBatch();
                if (i % 200 == 0) ps.executeBatch();
            }
            ps.executeBatch();
        }
    }

    /** "H2, in memory" or the database's product and version ("PostgreSQL 15.4") for the summary. */
    String describe(int i) {
        DemoNode node = nodes.get(i);
        if (embedded) return node.dialect().part(DemoDatabase.class).label() + ", in memory";
        if (products[i] == null) {
            try {
                DatabaseMetaData md = reader(i).getMetaData();
                // "10.11.6-MariaDB-1:10.11.6+maria~deb12", "15.4 (Debian 15.4-1)": the number is enough
                products[i] = md.getDatabaseProductName() + " " + md.getDatabaseProductVersion().split("[ -]", 2)[0];
            } catch (SQLException e) {
                return node.dialect().part(DemoDatabase.class).label();
            }
        }
        return products[i];
    }

    /** Node i's database URL as the header shows it: without the repl.* keys, passwords masked. */
    String shownUrl(int i) {
        return ReplUrl.mask(nodes.get(i).rawUrl());
    }

    /**
     * Node i's {@code jdbc:repl:} URL with the settings the CLI's {@code status} and {@code errors}
     * need in its query string (node name, peers and how to reach them). A password given with
     * {@code --password} is never printed: {@code ****} stands for it.
     */
    String inspectUrl(int i) {
        DemoNode node = nodes.get(i);
        StringBuilder url = new StringBuilder(node.replUrl());
        List<String> peers = new ArrayList<>();
        StringBuilder peerKeys = new StringBuilder();
        for (DemoNode peer : nodes) {
            if (peer == node) continue;
            peers.add(peer.name());
            peerKeys.append("&repl.peer.").append(peer.name()).append(".url=").append(encode(peer.rawUrl()));
            String user = peer.credentials().getProperty("user");
            if (user != null) peerKeys.append("&repl.peer.").append(peer.name()).append(".user=").append(encode(user));
            if (peer.credentials().getProperty("password") != null) {
                peerKeys.append("&repl.peer.").append(peer.name()).append(".password=****");
            }
        }
        url.append(node.replUrl().contains("?") ? "&" : "?").append("repl.node=").append(node.name())
                .append("&repl.peers=").append(String.join(",", peers)).append(peerKeys);
        return url.toString();
    }

    private static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }

    /** Stops the nodes' inbound servers in this JVM, then frees the embedded databases. */
    @Override
    public void close() {
        for (Connection c : readers) {
            try {
                if (c != null) c.close();
            } catch (SQLException ignored) {
                // only reads were made on it
            }
        }
        for (int i = 0; i < nodes.size(); i++) {
            try {
                admin(i).stopApply();
            } catch (SQLException unreachable) {
                // a node that cannot be reached has nothing running here to stop
            }
        }
        if (!embedded) return;
        for (int i = 0; i < nodes.size(); i++) {
            try (Connection c = openRaw(i); Statement s = c.createStatement()) {
                s.execute("SHUTDOWN");
            } catch (SQLException alreadyGone) {
                // nothing to free
            }
        }
    }

    private static Map<String, String> orderedMap(String... keysAndValues) {
        Map<String, String> map = new java.util.LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) map.put(keysAndValues[i], keysAndValues[i + 1]);
        return java.util.Collections.unmodifiableMap(map);
    }
}
