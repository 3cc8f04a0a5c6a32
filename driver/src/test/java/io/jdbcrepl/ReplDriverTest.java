package io.jdbcrepl;

import org.h2.jdbc.JdbcConnection;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.DriverPropertyInfo;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Properties;
import java.util.ServiceLoader;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ReplDriverTest {

    private final ReplDriver driver = new ReplDriver();

    @Test
    void serviceLoaderFindsTheDriver() {
        List<Class<?>> found = new ArrayList<>();
        for (Driver d : ServiceLoader.load(Driver.class)) found.add(d.getClass());
        assertThat(found).contains(ReplDriver.class);
    }

    @Test
    void driverManagerHandsJdbcReplUrlsToIt() throws SQLException {
        assertThat(DriverManager.getDriver("jdbc:repl:h2:mem:x")).isInstanceOf(ReplDriver.class);
    }

    @Test
    void acceptsOnlyItsOwnUrls() {
        assertThat(driver.acceptsURL("jdbc:repl:postgresql://localhost/db")).isTrue();
        assertThat(driver.acceptsURL("jdbc:repl:h2:mem:x")).isTrue();
        assertThat(driver.acceptsURL("jdbc:postgresql://localhost/db")).isFalse();
        assertThat(driver.acceptsURL("jdbc:h2:mem:jdbc:repl:x")).isFalse();
        assertThat(driver.acceptsURL(null)).isFalse();
    }

    @Test
    void anotherDriversUrlGivesNullAsJdbcRequires() throws SQLException {
        assertThat(driver.connect("jdbc:h2:mem:x", new Properties())).isNull();
    }

    @Test
    void connectsThroughTheDriverThatAcceptsTheRest() throws SQLException {
        String name = "d" + UUID.randomUUID();
        try (Connection c = DriverManager.getConnection("jdbc:repl:h2:mem:" + name + "?repl.tables=*.*")) {
            assertThat(c.isWrapperFor(JdbcConnection.class)).isTrue();
            assertThat(c.getMetaData().getURL()).isEqualTo("jdbc:h2:mem:" + name);
            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("select 41 + 1")) {
                rs.next();
                assertThat(rs.getInt(1)).isEqualTo(42);
            }
        }
    }

    @Test
    void theDelegateCanBeNamed() throws SQLException {
        Properties p = new Properties();
        p.setProperty("repl.driver", "org.h2.Driver");
        try (Connection c = driver.connect("jdbc:repl:h2:mem:named", p)) {
            assertThat(c.unwrap(JdbcConnection.class)).isNotNull();
        }
        p.setProperty("repl.driver", "java.lang.String");
        assertThatThrownBy(() -> driver.connect("jdbc:repl:h2:mem:named", p))
                .isInstanceOf(SQLException.class).hasMessageContaining("repl.driver=java.lang.String")
                .extracting(e -> ((SQLException) e).getSQLState()).isEqualTo("22023");
        p.setProperty("repl.driver", "org.postgresql.Driver");
        assertThatThrownBy(() -> driver.connect("jdbc:repl:h2:mem:named", p))
                .hasMessageContaining("does not accept");
    }

    /** A class named by repl.driver that is no driver is refused before any of its static code runs. */
    @Test
    void aNamedClassThatIsNoDriverIsNotInitialized() {
        Properties p = new Properties();
        p.setProperty("repl.driver", NotADriver.class.getName());
        assertThatThrownBy(() -> driver.connect("jdbc:repl:h2:mem:named", p))
                .hasMessageContaining("is not a vendor java.sql.Driver");
        assertThat(Flag.initialized).isFalse();
    }

    static final class Flag {
        static boolean initialized;
    }

    static final class NotADriver {
        static {
            Flag.initialized = true;
        }
    }

    @Test
    void aUrlNoDriverAcceptsFailsClearly() {
        assertThatThrownBy(() -> driver.connect("jdbc:repl:nosuchdb://host/db?password=hunter2", new Properties()))
                .isInstanceOf(SQLException.class)
                .hasMessageContaining("No JDBC driver accepts jdbc:nosuchdb://host/db")
                .hasMessageNotContaining("hunter2")
                .extracting(e -> ((SQLException) e).getSQLState()).isEqualTo("08001");
    }

    @Test
    void propertyInfoListsTheCatalogue() throws SQLException {
        DriverPropertyInfo[] info = driver.getPropertyInfo("jdbc:repl:h2:mem:x", new Properties());
        assertThat(info).extracting(i -> i.name).contains("repl.node", "repl.tables", "repl.peers");
    }

    @Test
    void deregisterAndRegisterAgain() throws SQLException {
        assertThat(ReplDriver.isRegistered()).isTrue();
        ReplDriver.deregister();
        try {
            assertThat(ReplDriver.isRegistered()).isFalse();
            assertThat(Collections.list(DriverManager.getDrivers())).noneMatch(d -> d instanceof ReplDriver);
            assertThatThrownBy(ReplDriver::deregister).isInstanceOf(IllegalStateException.class);
        } finally {
            ReplDriver.register();
        }
        assertThat(ReplDriver.isRegistered()).isTrue();
        assertThat(Collections.list(DriverManager.getDrivers())).anyMatch(d -> d instanceof ReplDriver);
    }
}
