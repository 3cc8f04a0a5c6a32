package io.jdbcrepl;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.DriverPropertyInfo;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.logging.Logger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Issue 16: a jdbc:repl: URL of a database the driver cannot capture on (SQL Server, or any other
 * driver on the class path). Without repl.node it is a pure pass-through to that driver; with
 * repl.node it fails at connect, before any connection is made, naming the databases it serves.
 */
class OtherVendorUrlTest {

    /** A driver for {@code jdbc:fakedb:} whose connections answer getCatalog and record what they were asked. */
    static final class FakeDriver implements Driver {
        final List<String> calls = new ArrayList<>();

        @Override
        public Connection connect(String url, Properties info) {
            if (!acceptsURL(url)) return null;
            calls.add("connect " + url + " " + new java.util.TreeMap<>(info));
            return (Connection) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {Connection.class},
                    (proxy, method, args) -> {
                        calls.add(method.getName());
                        return switch (method.getName()) {
                            case "getCatalog" -> "fake_catalog";
                            case "isClosed", "isWrapperFor" -> false;
                            case "getAutoCommit" -> true;
                            case "hashCode" -> System.identityHashCode(proxy);
                            case "equals" -> proxy == args[0];
                            case "toString" -> "FakeConnection";
                            default -> null;
                        };
                    });
        }

        @Override
        public boolean acceptsURL(String url) {
            return url != null && url.startsWith("jdbc:fakedb:");
        }

        @Override
        public DriverPropertyInfo[] getPropertyInfo(String url, Properties info) {
            return new DriverPropertyInfo[0];
        }

        @Override
        public int getMajorVersion() {
            return 1;
        }

        @Override
        public int getMinorVersion() {
            return 0;
        }

        @Override
        public boolean jdbcCompliant() {
            return false;
        }

        @Override
        public Logger getParentLogger() {
            return Logger.getLogger("fakedb");
        }
    }

    private final FakeDriver fake = new FakeDriver();

    @BeforeEach
    void register() throws SQLException {
        DriverManager.registerDriver(fake);
    }

    @AfterEach
    void deregister() throws SQLException {
        DriverManager.deregisterDriver(fake);
    }

    @Test
    void withoutReplNodeAnyDriversUrlIsAPurePassThrough() throws SQLException {
        Properties p = new Properties();
        p.setProperty("user", "app");
        p.setProperty("repl.tables", "*.*");
        try (Connection c = DriverManager.getConnection("jdbc:repl:fakedb://host:1433/db?repl.unsupported=error&x=1", p)) {
            assertThat(c.getCatalog()).isEqualTo("fake_catalog");
            assertThat(c.getClass().getName()).startsWith("io.jdbcrepl.");
        }
        assertThat(fake.calls).containsExactly("connect jdbc:fakedb://host:1433/db?x=1 {user=app}", "getCatalog", "close");
    }

    @Test
    void withReplNodeItFailsBeforeConnectingAndNamesTheDatabasesItServes() {
        for (String url : List.of("jdbc:repl:fakedb://host/db?repl.node=n1",
                "jdbc:repl:sqlserver://host:1433;databaseName=hr?repl.node=n1&password=hunter2")) {
            assertThatThrownBy(() -> DriverManager.getConnection(url, new Properties()))
                    .as(url)
                    .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("0AR01"))
                    .hasMessageContaining("repl.node")
                    .hasMessageContaining("PostgreSQL, MySQL, MariaDB and H2")
                    .hasMessageContaining(url.substring("jdbc:repl:".length(), url.indexOf(':', "jdbc:repl:".length()) + 1))
                    .hasMessageContaining("pass-through")
                    .hasMessageNotContaining("hunter2");
        }
        assertThat(fake.calls).as("no connection was made").isEmpty();
    }
}
