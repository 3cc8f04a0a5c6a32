package io.jdbcrepl.spring;

import com.zaxxer.hikari.HikariDataSource;
import io.jdbcrepl.ReplDriver;
import io.jdbcrepl.api.ReplAdmin;
import io.jdbcrepl.it.support.TestDatabase;
import io.jdbcrepl.it.support.TestDatabases;
import io.jdbcrepl.it.support.Vendor;
import io.jdbcrepl.spring.app.ShopApplication;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.actuate.health.HealthComponent;
import org.springframework.boot.actuate.health.HealthEndpoint;
import org.springframework.boot.actuate.health.Status;
import org.springframework.boot.autoconfigure.jdbc.DataSourceProperties;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import javax.sql.DataSource;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two Spring Boot applications in one JVM, each a node with its own database, configured with
 * {@code spring.datasource.url=jdbc:repl:...} and {@code jdbc-repl.*} properties only (no driver
 * class name): rows replicate both ways, the health endpoint's {@code repl} follows the appliers,
 * and closing the contexts leaves no apply thread behind.
 */
class SpringBootStarterIT {

    @RegisterExtension
    final TestDatabases databases = TestDatabases.perTest();

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = Vendor.class, names = {"POSTGRESQL", "MARIADB"})
    void twoApplicationsReplicateAndReportHealth(Vendor vendor) throws Exception {
        List<TestDatabase> dbs = databases.nodes(vendor, "boot", 2);
        String prefix = vendor.name().toLowerCase(Locale.ROOT).substring(0, 2) + "boot";
        String one = prefix + "1";
        String two = prefix + "2";
        ConfigurableApplicationContext first = start(one, dbs.get(0), two, dbs.get(1));
        ConfigurableApplicationContext second = null;
        HikariDataSource firstPool = first.getBean(HikariDataSource.class);
        try {
            second = start(two, dbs.get(1), one, dbs.get(0));
            assertThat(first.getBean(DataSourceProperties.class).determineDriverClassName())
                    .isEqualTo(ReplDriver.class.getName());

            DataSource firstData = first.getBean(DataSource.class);
            DataSource secondData = second.getBean(DataSource.class);
            for (DataSource d : List.of(firstData, secondData)) {
                execute(d, "CREATE TABLE items (id INT PRIMARY KEY, name VARCHAR(40))");
            }
            execute(firstData, "INSERT INTO items VALUES (1, 'from " + one + "')");
            execute(secondData, "INSERT INTO items VALUES (2, 'from " + two + "')");
            ReplAdmin firstAdmin = admin(firstData);
            ReplAdmin secondAdmin = admin(secondData);
            firstAdmin.waitForPeers(Duration.ofSeconds(20));
            secondAdmin.waitForPeers(Duration.ofSeconds(20));
            assertThat(names(firstData)).containsExactly("from " + one, "from " + two);
            assertThat(names(secondData)).containsExactly("from " + one, "from " + two);
            // the driver's meters are in the application's registry
            MeterRegistry meters = second.getBean(MeterRegistry.class);
            assertThat(meters.get("jdbc.repl.apply.transactions").tags("node", two, "peer", one, "outcome", "applied")
                    .functionCounter().count()).isGreaterThanOrEqualTo(1);
            assertThat(meters.get("jdbc.repl.applier.state").tags("node", two, "peer", one, "state", "RUNNING")
                    .gauge().value()).isEqualTo(1);

            assertThat(repl(first).getStatus()).isEqualTo(Status.UP);
            assertThat(repl(second).getStatus()).isEqualTo(Status.UP);
            // jdbc-repl.health.lag is the driver's repl.health.lag, which the indicator reads back from the node
            assertThat(((org.springframework.boot.actuate.health.Health) repl(first)).getDetails())
                    .containsEntry("lagLimitSeconds", 60L);
            assertThat(health(first).getStatus()).isEqualTo(Status.UP);

            firstAdmin.stopApply();
            HealthComponent stopped = repl(first);
            assertThat(stopped.getStatus()).isEqualTo(Status.DOWN);
            assertThat(stopped.toString()).contains(two + ": applier NOT_RUNNING");
            assertThat(health(first).getStatus()).isEqualTo(Status.DOWN);
            assertThat(repl(second).getStatus()).isEqualTo(Status.UP);

            firstAdmin.startApply();
            assertThat(repl(first).getStatus()).isEqualTo(Status.UP);
        } finally {
            first.close();
            if (second != null) second.close();
        }
        assertThat(firstPool.isClosed()).isTrue();
        assertThat(applyThreads(one)).isEmpty();
        assertThat(applyThreads(two)).isEmpty();
    }

    /** Without jdbc-repl.node the URL is a pass-through: the application runs, its health says nothing of repl. */
    @ParameterizedTest(name = "{0}")
    @EnumSource(value = Vendor.class, names = "POSTGRESQL")
    void aPassThroughIsUnknownToHealth(Vendor vendor) throws Exception {
        TestDatabase db = databases.create(vendor, "bootpass");
        try (ConfigurableApplicationContext context = new SpringApplicationBuilder(ShopApplication.class)
                .web(WebApplicationType.NONE)
                .properties("spring.main.banner-mode=off", "spring.datasource.url=" + db.replUrl(),
                        "spring.datasource.username=" + db.user(), "spring.datasource.password=" + db.password(),
                        "spring.jmx.enabled=true", "spring.jmx.unique-names=true")
                .run()) {
            execute(context.getBean(DataSource.class), "CREATE TABLE items (id INT PRIMARY KEY)");
            assertThat(repl(context).getStatus()).isEqualTo(Status.UNKNOWN);
            assertThat(health(context).getStatus()).isEqualTo(Status.UP);
        }
    }

    /**
     * An application started from the README's Spring Boot recipe: its keys and values, with this
     * test's node names in place of shop1 and shop2 and its databases in place of the example's
     * addresses; then what only a test needs (a small pool, a fast poll, no health cache, JMX).
     */
    private static ConfigurableApplicationContext start(String node, TestDatabase db, String peer, TestDatabase peerDb)
            throws IOException {
        Map<String, String> properties = new LinkedHashMap<>();
        for (Map.Entry<String, String> e : readmeRecipe().entrySet()) {
            properties.put(e.getKey().replace("shop1", node).replace("shop2", peer),
                    e.getValue().replace("shop1", node).replace("shop2", peer));
        }
        Map<String, String> addresses = Map.of("spring.datasource.url", db.replUrl(),
                "spring.datasource.username", db.user(), "spring.datasource.password", db.password(),
                "jdbc-repl.peer." + peer + ".url", peerDb.rawUrl(), "jdbc-repl.peer." + peer + ".user", peerDb.user(),
                "jdbc-repl.peer." + peer + ".password", peerDb.password());
        assertThat(properties).as("the README's recipe").containsKeys(addresses.keySet().toArray(String[]::new))
                .containsEntry("jdbc-repl.node", node).containsEntry("jdbc-repl.peers", peer)
                .doesNotContainKey("spring.datasource.driver-class-name");
        properties.putAll(addresses);
        properties.put("spring.application.name", node);
        properties.put("spring.main.banner-mode", "off");
        // the test takes one connection at a time: a pool that grows on its own would open new
        // connections, each of which starts the apply side again (SPEC 4)
        properties.put("spring.datasource.hikari.minimum-idle", "1");
        properties.put("spring.datasource.hikari.maximum-pool-size", "4");
        properties.put("jdbc-repl.apply.poll", "50ms");
        properties.put("jdbc-repl.health.cache", "0s");
        // the health endpoint is available without a web server when JMX exposes it
        properties.put("spring.jmx.enabled", "true");
        properties.put("spring.jmx.unique-names", "true");
        return new SpringApplicationBuilder(ShopApplication.class)
                .web(WebApplicationType.NONE)
                .properties(properties.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).toArray(String[]::new))
                .run();
    }

    /** The {@code properties} block of the README's "Spring Boot" section, key by key. */
    static Map<String, String> readmeRecipe() throws IOException {
        String readme = Files.readString(Path.of("../README.md"));
        Matcher block = Pattern.compile("(?s)### Spring Boot\\n.*?```properties\\n(.*?)```").matcher(readme);
        assertThat(block.find()).as("a properties block in the README's Spring Boot section").isTrue();
        Map<String, String> recipe = new LinkedHashMap<>();
        for (String line : block.group(1).split("\\n")) {
            if (line.isBlank() || line.startsWith("#")) continue;
            int eq = line.indexOf('=');
            recipe.put(line.substring(0, eq).trim(), line.substring(eq + 1).trim());
        }
        return recipe;
    }

    private static HealthComponent repl(ConfigurableApplicationContext context) {
        return context.getBean(HealthEndpoint.class).healthForPath("repl");
    }

    private static HealthComponent health(ConfigurableApplicationContext context) {
        return context.getBean(HealthEndpoint.class).health();
    }

    private static ReplAdmin admin(DataSource dataSource) throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            return c.unwrap(ReplAdmin.class);
        }
    }

    private static void execute(DataSource dataSource, String sql) throws SQLException {
        try (Connection c = dataSource.getConnection(); Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }

    private static List<String> names(DataSource dataSource) throws SQLException {
        List<String> names = new ArrayList<>();
        try (Connection c = dataSource.getConnection(); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT name FROM items ORDER BY id")) {
            while (rs.next()) names.add(rs.getString(1));
        }
        return names;
    }

    /** The node's apply and purge threads (InboundServer's names) still alive. */
    private static List<String> applyThreads(String node) {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(Thread::isAlive)
                .map(Thread::getName)
                .filter(n -> n.endsWith("->" + node) || n.equals("jdbc-repl-purge-" + node))
                .toList();
    }
}
