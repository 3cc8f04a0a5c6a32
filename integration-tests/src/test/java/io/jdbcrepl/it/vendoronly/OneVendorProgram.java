package io.jdbcrepl.it.vendoronly;

import io.jdbcrepl.api.ReplAdmin;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

/**
 * Runs in a JVM of its own whose class path holds the driver jar, one vendor's JDBC driver and
 * this class: capture, apply between two nodes, a materialized view log and a fast-refreshed view.
 * Uses nothing but the JDK and the driver (no test library is on that class path). Prints
 * {@code ONE-VENDOR-OK} and exits 0 when everything held; a failure's stack trace and exit 1
 * otherwise.
 *
 * <p>Arguments: the vendor driver class expected, the raw URLs of nodes n1 and n2, user, password.
 */
public final class OneVendorProgram {

    static final String OK = "ONE-VENDOR-OK";
    private static final String[] VENDOR_DRIVERS = {"org.postgresql.Driver", "org.mariadb.jdbc.Driver",
        "com.mysql.cj.jdbc.Driver", "org.h2.Driver"};

    private OneVendorProgram() {
    }

    public static void main(String[] args) {
        try {
            run(args[0], args[1], args[2], args[3], args.length > 4 ? args[4] : "");
            System.out.println(OK);
            System.exit(0);
        } catch (Throwable t) {
            t.printStackTrace(System.out);
            System.exit(1);
        }
    }

    private static void run(String vendorDriver, String raw1, String raw2, String user, String password) throws Exception {
        for (String d : VENDOR_DRIVERS) {
            boolean present = loadable(d);
            if (present != d.equals(vendorDriver)) {
                throw new IllegalStateException("class path: " + d + (present ? " is" : " is not") + " on it");
            }
        }
        Properties credentials = new Properties();
        credentials.setProperty("user", user);
        credentials.setProperty("password", password);
        for (String raw : List.of(raw1, raw2)) {
            try (Connection c = DriverManager.getConnection(raw, credentials); Statement s = c.createStatement()) {
                s.execute("CREATE TABLE item (id INT PRIMARY KEY, name VARCHAR(40), qty INT)");
            }
        }
        String n1 = replUrl(raw1, "n1", "n2", raw2, user, password);
        String n2 = replUrl(raw2, "n2", "n1", raw1, user, password);
        try (Connection c1 = DriverManager.getConnection(n1, credentials);
                Connection c2 = DriverManager.getConnection(n2, credentials)) {
            // capture at n1, apply at n2, and back
            c1.setAutoCommit(false);
            try (Statement s = c1.createStatement()) {
                s.executeUpdate("INSERT INTO item VALUES (1, 'bolt', 10)");
                s.executeUpdate("INSERT INTO item VALUES (2, 'nut', 20)");
            }
            c1.commit();
            c1.setAutoCommit(true);
            c2.unwrap(ReplAdmin.class).waitForPeers(Duration.ofSeconds(60));
            try (Statement s = c2.createStatement()) {
                s.executeUpdate("UPDATE item SET qty = 11 WHERE id = 1");
            }
            c1.unwrap(ReplAdmin.class).waitForPeers(Duration.ofSeconds(60));
            expect(rows(c1, "SELECT id, name, qty FROM item ORDER BY id"), "1 bolt 11", "2 nut 20");
            expect(rows(c2, "SELECT id, name, qty FROM item ORDER BY id"), "1 bolt 11", "2 nut 20");

            // a materialized view log, a view refreshed fast from it, and a refresh after a change
            try (Statement s = c1.createStatement()) {
                s.execute("CREATE MATERIALIZED VIEW LOG ON item WITH PRIMARY KEY (qty) INCLUDING NEW VALUES");
                s.execute("CREATE MATERIALIZED VIEW item_mv REFRESH FAST AS SELECT id, qty FROM item");
                s.executeUpdate("INSERT INTO item VALUES (3, 'washer', 30)");
                s.executeUpdate("UPDATE item SET qty = 21 WHERE id = 2");
                s.execute("CALL DBMS_MVIEW.REFRESH('item_mv')");
            }
            expect(rows(c1, "SELECT id, qty FROM item_mv ORDER BY id"), "1 11", "2 21", "3 30");
            c2.unwrap(ReplAdmin.class).waitForPeers(Duration.ofSeconds(60));
            expect(rows(c2, "SELECT id, name, qty FROM item ORDER BY id"), "1 bolt 11", "2 nut 21", "3 washer 30");
        }
    }

    private static boolean loadable(String className) {
        try {
            Class.forName(className, false, OneVendorProgram.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException e) {
            return false;
        }
    }

    private static String replUrl(String raw, String node, String peer, String peerRaw, String user, String password) {
        StringBuilder url = new StringBuilder("jdbc:repl:").append(raw.substring("jdbc:".length()));
        url.append(raw.indexOf('?') < 0 ? '?' : '&').append("repl.node=").append(node);
        url.append("&repl.peers=").append(peer);
        url.append("&repl.peer.").append(peer).append(".url=").append(encode(peerRaw));
        url.append("&repl.peer.").append(peer).append(".user=").append(encode(user));
        if (!password.isEmpty()) url.append("&repl.peer.").append(peer).append(".password=").append(encode(password));
        return url.append("&repl.apply.poll=50ms").toString();
    }

    /** The repl URL of node n2 as the parent's CLI run reaches it. */
    static String n2Url(String raw1, String raw2, String user, String password) {
        return replUrl(raw2, "n2", "n1", raw1, user, password);
    }

    private static String encode(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    private static List<String> rows(Connection c, String sql) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                StringBuilder row = new StringBuilder();
                for (int i = 1; i <= n; i++) row.append(i == 1 ? "" : " ").append(rs.getString(i));
                out.add(row.toString());
            }
        }
        return out;
    }

    private static void expect(List<String> actual, String... expected) {
        if (!actual.equals(List.of(expected))) {
            throw new AssertionError("expected " + List.of(expected) + " but found " + actual);
        }
    }
}
