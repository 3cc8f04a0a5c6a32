package io.jdbcrepl.it.apply;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.jdbcrepl.dialect.Dialect;
import io.jdbcrepl.admin.Repl;
import io.jdbcrepl.api.ReplAdmin;
import io.jdbcrepl.it.support.TestDatabase;
import io.jdbcrepl.it.support.Vendor;
import io.jdbcrepl.lcr.ValueType;
import io.jdbcrepl.verify.TableVerifier;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Nodes n1..nk on test databases, each a {@code jdbc:repl:} URL with {@code repl.node},
 * {@code repl.peers} (every other node, or those an extra {@code repl.peers} names) and {@code repl.peer.<p>.url}; {@link #close()} stops the
 * inbound servers of this JVM before the databases are dropped.
 */
final class Cluster implements AutoCloseable {

    static final Duration WAIT = Duration.ofSeconds(45);

    private final List<TestDatabase> dbs;
    private final Map<String, String> extra;
    private final Map<Integer, Map<String, String>> perNode = new java.util.HashMap<>();

    Cluster(List<TestDatabase> dbs, Map<String, String> extra) {
        this.dbs = dbs;
        this.extra = extra;
    }

    Cluster(List<TestDatabase> dbs) {
        this(dbs, Map.of());
    }

    /** Connector options appended to one node's URL as they are, not encoded ({@code sessionVariables=time_zone='-03:00'}). */
    private final Map<Integer, String> rawOptions = new java.util.HashMap<>();

    Cluster withRawOption(int node, String option) {
        rawOptions.put(node, option);
        return this;
    }

    /** More repl.* keys for one node's URL, winning over the others. */
    Cluster with(int node, Map<String, String> properties) {
        perNode.put(node, properties);
        return this;
    }

    int size() {
        return dbs.size();
    }

    TestDatabase db(int i) {
        return dbs.get(i);
    }

    static String name(int i) {
        return "n" + (i + 1);
    }

    String url(int i) {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("repl.node", name(i));
        List<String> peers = new ArrayList<>();
        String only = extra.get("repl.peers"); // a subset of the other nodes
        for (int j = 0; j < dbs.size(); j++) {
            if (j == i || (only != null && !List.of(only.split(",")).contains(name(j)))) continue;
            peers.add(name(j));
            TestDatabase peer = dbs.get(j);
            p.putAll(peer.asPeer(name(j)));
        }
        p.put("repl.peers", String.join(",", peers));
        p.put("repl.apply.poll", "50ms");
        p.putAll(extra);
        p.putAll(perNode.getOrDefault(i, Map.of()));
        String url = dbs.get(i).replUrl(p);
        return rawOptions.containsKey(i) ? url + (url.contains("?") ? "&" : "?") + rawOptions.get(i) : url;
    }

    Connection open(int i) throws SQLException {
        return DriverManager.getConnection(url(i), dbs.get(i).credentials());
    }

    ReplAdmin admin(int i) throws SQLException {
        try (Connection c = open(i)) {
            return c.unwrap(ReplAdmin.class);
        }
    }

    HikariDataSource pool(int i, int size) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(url(i));
        config.setUsername(dbs.get(i).user());
        config.setPassword(dbs.get(i).password());
        config.setMaximumPoolSize(size);
        config.setAutoCommit(false);
        config.setPoolName("cluster-" + name(i));
        return new HikariDataSource(config);
    }

    /**
     * Runs the DDL of each node's vendor on every node, through the raw driver (nodes start
     * identical), then connects to every node once, as its application would: that installs the
     * driver's tables and starts its inbound server.
     */
    void ddl(Function<Vendor, List<String>> ddl) throws SQLException {
        for (TestDatabase db : dbs) {
            try (Connection c = db.openRaw(); Statement s = c.createStatement()) {
                for (String sql : ddl.apply(db.vendor())) s.execute(sql);
            }
        }
        for (int i = 0; i < dbs.size(); i++) open(i).close();
    }

    void waitForAll() throws SQLException {
        for (int i = 0; i < dbs.size(); i++) admin(i).waitForPeers(WAIT);
    }

    /**
     * Every row of a table, each column read as its portable type, as comparable text; a driver
     * table ({@code repl_error}, ...) is read in the node's driver schema.
     */
    List<String> rows(int i, String table, String orderBy) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Connection c = dbs.get(i).openRaw(); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery(dbs.get(i).driverTables("SELECT * FROM " + table + " ORDER BY " + orderBy))) {
            ResultSetMetaData md = rs.getMetaData();
            while (rs.next()) {
                StringBuilder row = new StringBuilder();
                for (int col = 1; col <= md.getColumnCount(); col++) {
                    Object v = ValueType.of(md.getColumnType(col), md.getColumnTypeName(col)).read(rs, col);
                    if (v instanceof BigDecimal d) v = d.stripTrailingZeros().toPlainString();
                    row.append(col == 1 ? "" : ", ").append(md.getColumnLabel(col).toLowerCase()).append('=').append(v);
                }
                out.add(row.toString());
            }
        }
        return out;
    }

    /** Runs one statement through node i's {@code jdbc:repl:} URL (captured). */
    void execute(int i, String sql) throws SQLException {
        try (Connection c = open(i); Statement s = c.createStatement()) {
            s.executeUpdate(sql);
        }
    }

    /** The first column of the first row of a query on node i; the driver tables it names are read in the node's driver schema. */
    long count(int i, String sql) throws SQLException {
        try (Connection c = dbs.get(i).openRaw(); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery(dbs.get(i).driverTables(sql))) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /** {@code table} compared across every node by the driver's verify, each read on a raw connection. */
    TableVerifier.Report verify(String table) throws SQLException {
        List<TableVerifier.Side> sides = new ArrayList<>();
        List<Connection> open = new ArrayList<>();
        try {
            for (int i = 0; i < size(); i++) {
                Connection c = db(i).openRaw();
                open.add(c);
                sides.add(new TableVerifier.Side(name(i), c,
                        Dialect.forUrl(db(i).rawUrl())));
            }
            return new TableVerifier(10).compare(sides, table);
        } finally {
            for (Connection c : open) c.close();
        }
    }

    @Override
    public void close() {
        Repl.shutdown();
    }
}
