package io.jdbcrepl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.UUID;
import javax.sql.DataSource;
import org.h2.jdbc.JdbcConnection;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** ReplDataSource over in-memory H2 databases: no server needed. */
class ReplDataSourceTest {

    private static final String SECRET = "s3cr3t-Pa55";

    /** A fresh in-memory database that lives until the JVM ends, so several connections share it. */
    private static String newDatabaseUrl() {
        return "jdbc:repl:h2:mem:ds_" + UUID.randomUUID().toString().replace("-", "") + ";DB_CLOSE_DELAY=-1";
    }

    private static ReplDataSource dataSource(String url, String user, String password) {
        ReplDataSource dataSource = new ReplDataSource();
        dataSource.setUrl(url);
        dataSource.setUser(user);
        dataSource.setPassword(password);
        return dataSource;
    }

    private static String queryString(Connection connection, String sql) throws SQLException {
        try (Statement statement = connection.createStatement(); ResultSet rs = statement.executeQuery(sql)) {
            assertThat(rs.next()).isTrue();
            return rs.getString(1);
        }
    }

    @Test
    void connectsThroughTheReplDriver() throws SQLException {
        try (Connection connection = dataSource(newDatabaseUrl(), "sa", "").getConnection()) {
            assertThat(connection).isNotInstanceOf(JdbcConnection.class); // the driver's proxy, not H2's own
            assertThat(connection.isWrapperFor(JdbcConnection.class)).isTrue();
            assertThat(queryString(connection, "SELECT 40 + 2")).isEqualTo("42");
        }
    }

    @Test
    void userAndPasswordReachTheDatabase() throws SQLException {
        String url = newDatabaseUrl();
        // H2 creates the database's admin with the credentials of the first connection.
        try (Connection first = dataSource(url, "app", SECRET).getConnection()) {
            assertThat(queryString(first, "SELECT CURRENT_USER")).isEqualToIgnoringCase("app");
        }
        try (Connection again = dataSource(url, "app", SECRET).getConnection()) {
            assertThat(again.isValid(1)).isTrue();
        }
        SQLException wrong = assertThrows(SQLException.class,
                () -> dataSource(url, "app", "not-" + SECRET).getConnection().close());
        assertThat(String.valueOf(wrong.getMessage())).doesNotContain(SECRET);
    }

    @Test
    void getConnectionWithCredentialsOverridesTheBeansOnes() throws SQLException {
        String url = newDatabaseUrl();
        dataSource(url, "app", SECRET).getConnection().close();
        ReplDataSource wrongDefaults = dataSource(url, "nobody", "wrong");
        try (Connection connection = wrongDefaults.getConnection("app", SECRET)) {
            assertThat(queryString(connection, "SELECT CURRENT_USER")).isEqualToIgnoringCase("app");
        }
        assertThatThrownBy(() -> wrongDefaults.getConnection().close()).isInstanceOf(SQLException.class);
    }

    @Test
    void extraPropertiesReachTheVendorDriver() throws SQLException {
        ReplDataSource dataSource = dataSource(newDatabaseUrl(), "sa", "");
        dataSource.setProperty("MODE", "PostgreSQL");
        try (Connection connection = dataSource.getConnection()) {
            assertThat(queryString(connection,
                    "SELECT SETTING_VALUE FROM INFORMATION_SCHEMA.SETTINGS WHERE SETTING_NAME = 'MODE'"))
                    .isEqualTo("PostgreSQL");
        }
    }

    @Test
    void setPropertiesReplacesTheExtraPropertiesAndANullValueRemovesOne() throws SQLException {
        ReplDataSource dataSource = dataSource(newDatabaseUrl(), "sa", "");
        dataSource.setProperty("repl.no_such_key", "1");
        Properties replacement = new Properties();
        replacement.setProperty("MODE", "MySQL");
        dataSource.setProperties(replacement);
        replacement.setProperty("repl.no_such_key", "1"); // a later change to the caller's copy is not seen
        try (Connection connection = dataSource.getConnection()) {
            assertThat(queryString(connection,
                    "SELECT SETTING_VALUE FROM INFORMATION_SCHEMA.SETTINGS WHERE SETTING_NAME = 'MODE'"))
                    .isEqualTo("MySQL");
        }
        dataSource.setProperty("MODE", null);
        dataSource.setUrl(newDatabaseUrl()); // MODE is a database setting: look at a new database
        try (Connection connection = dataSource.getConnection()) {
            assertThat(queryString(connection,
                    "SELECT SETTING_VALUE FROM INFORMATION_SCHEMA.SETTINGS WHERE SETTING_NAME = 'MODE'"))
                    .isEqualTo("REGULAR");
        }
    }

    @Test
    void replKeysFromSetPropertyReachTheDriversCatalogue() {
        ReplDataSource dataSource = dataSource(newDatabaseUrl(), "sa", "");
        dataSource.setProperty("repl.no_such_key", "1");
        assertThatThrownBy(dataSource::getConnection)
                .isInstanceOf(SQLException.class)
                .hasMessageContaining("repl.no_such_key")
                .extracting(e -> ((SQLException) e).getSQLState()).isEqualTo("42704");
    }

    @Test
    void replKeysFromTheUrlQueryReachTheDriversCatalogue() {
        ReplDataSource dataSource = dataSource(newDatabaseUrl() + "?repl.no_such_key=1", "sa", "");
        assertThatThrownBy(dataSource::getConnection)
                .isInstanceOf(SQLException.class)
                .hasMessageContaining("repl.no_such_key")
                .extracting(e -> ((SQLException) e).getSQLState()).isEqualTo("42704");
    }

    @Test
    void configNamesAFileWhoseKeysTheDriverReads(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("repl.properties");
        Files.writeString(file, "repl.key_from_the_file=1\n");
        ReplDataSource dataSource = dataSource(newDatabaseUrl(), "sa", "");
        dataSource.setConfig("file:" + file);
        assertThat(dataSource.getConfig()).isEqualTo("file:" + file);
        assertThatThrownBy(dataSource::getConnection)
                .isInstanceOf(SQLException.class)
                .hasMessageContaining("repl.key_from_the_file");

        Files.writeString(file, "# nothing but a comment\n");
        try (Connection connection = dataSource.getConnection()) {
            assertThat(connection.isValid(1)).isTrue();
        }
    }

    @Test
    void configThatDoesNotExistFailsTheConnection() {
        ReplDataSource dataSource = dataSource(newDatabaseUrl(), "sa", "");
        dataSource.setConfig("classpath:no/such/repl.properties");
        assertThatThrownBy(dataSource::getConnection)
                .isInstanceOf(SQLException.class)
                .hasMessageContaining("no/such/repl.properties");
    }

    /**
     * HikariCP's PropertyElf turns {@code dataSource.<name>=<value>} into a call of the first public
     * one-argument method named {@code set<Name>} (or {@code set<NAME>}); for a String parameter it
     * passes the value as it is. This does the same, so the four documented names are shown to work.
     */
    @ParameterizedTest
    @ValueSource(strings = {"url", "user", "password", "config"})
    void eachDocumentedPropertyHasExactlyOneStringSetterForHikari(String name) {
        String setter = "set" + name.substring(0, 1).toUpperCase(Locale.ENGLISH) + name.substring(1);
        List<Method> candidates = Arrays.stream(ReplDataSource.class.getMethods())
                .filter(m -> m.getName().equals(setter) && m.getParameterCount() == 1)
                .toList();
        assertThat(candidates).singleElement()
                .satisfies(m -> assertThat(m.getParameterTypes()[0]).isEqualTo(String.class));
    }

    @Test
    void connectsWhenConfiguredTheWayHikariSetsDataSourceProperties() throws Exception {
        String url = newDatabaseUrl();
        dataSource(url, "app", SECRET).getConnection().close();
        Properties dataSourceProperties = new Properties();
        dataSourceProperties.setProperty("url", url);
        dataSourceProperties.setProperty("user", "app");
        dataSourceProperties.setProperty("password", SECRET);
        // HikariCP creates the class by name with its no-argument constructor.
        DataSource dataSource = (DataSource) Class.forName("io.jdbcrepl.ReplDataSource")
                .getDeclaredConstructor().newInstance();
        for (String name : dataSourceProperties.stringPropertyNames()) {
            String setter = "set" + name.substring(0, 1).toUpperCase(Locale.ENGLISH) + name.substring(1);
            dataSource.getClass().getMethod(setter, String.class).invoke(dataSource, dataSourceProperties.getProperty(name));
        }
        try (Connection connection = dataSource.getConnection()) {
            assertThat(queryString(connection, "SELECT CURRENT_USER")).isEqualToIgnoringCase("app");
        }
    }

    @Test
    void theReplKeysOfHikarisDataSourcePrefixHaveNoSetterSoTheDocsPointElsewhere() {
        assertThat(Arrays.stream(ReplDataSource.class.getMethods()).map(Method::getName))
                .noneMatch(name -> name.contains("."));
    }

    @Test
    void urlOfAnotherDriverIsRejectedAtOnceWithoutShowingItsPassword() {
        ReplDataSource dataSource = new ReplDataSource();
        assertThatThrownBy(() -> dataSource.setUrl("jdbc:postgresql://db1/hr?password=" + SECRET))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("jdbc:repl:")
                .hasMessageNotContaining(SECRET);
        assertThat(dataSource.getUrl()).isNull();
    }

    @Test
    void noUrlFailsTheConnectionClearly() {
        assertThatThrownBy(() -> new ReplDataSource().getConnection())
                .isInstanceOf(SQLException.class)
                .hasMessageContaining("setUrl");
    }

    @Test
    void toStringNeverShowsThePassword() {
        ReplDataSource dataSource = dataSource(
                "jdbc:repl:postgresql://db1/hr?password=" + SECRET + "&repl.node=dbs1", "app", SECRET);
        dataSource.setProperty("repl.peer.dbs2.password", SECRET);
        dataSource.setConfig("classpath:repl.properties");
        assertThat(dataSource.toString())
                .doesNotContain(SECRET)
                .contains("jdbc:repl:postgresql://db1/hr", "app", "classpath:repl.properties", "repl.peer.dbs2.password");
    }

    @Test
    void wrapsOnlyItself() throws SQLException {
        ReplDataSource dataSource = new ReplDataSource();
        assertThat(dataSource.isWrapperFor(DataSource.class)).isTrue();
        assertThat(dataSource.unwrap(ReplDataSource.class)).isSameAs(dataSource);
        assertThat(dataSource.isWrapperFor(JdbcConnection.class)).isFalse();
        assertThatThrownBy(() -> dataSource.unwrap(JdbcConnection.class)).isInstanceOf(SQLException.class);
    }

    @Test
    void loginTimeoutAndLogWriterAreKept() throws SQLException {
        ReplDataSource dataSource = new ReplDataSource();
        assertThat(dataSource.getLoginTimeout()).isZero();
        assertThat(dataSource.getLogWriter()).isNull();
        dataSource.setLoginTimeout(7);
        PrintWriter writer = new PrintWriter(new StringWriter());
        dataSource.setLogWriter(writer);
        assertThat(dataSource.getLoginTimeout()).isEqualTo(7);
        assertThat(dataSource.getLogWriter()).isSameAs(writer);
        assertThat(dataSource.getParentLogger()).isNotNull();
    }
}
