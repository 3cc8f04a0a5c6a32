package io.jdbcrepl.it;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.jdbcrepl.admin.Repl;
import io.jdbcrepl.api.ReplAdmin;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The README's quick-start code, kept here and run: each block between a {@code // README begin}
 * and {@code // README end} line must appear in README.md exactly (without this file's
 * indentation), so the README cannot drift from code that works.
 */
class QuickStartIT {

    private static final Path README = Path.of("..", "README.md");
    private static final Path SOURCE = Path.of("src", "test", "java", "io", "jdbcrepl", "it", "QuickStartIT.java");

    @AfterEach
    void stopAppliers() {
        Repl.shutdown();
    }

    @Test
    void driverManagerTwoNodes() throws SQLException {
        // README begin
        // Two nodes on embedded H2 databases; each applies the other's changes.
        Properties n1 = new Properties();
        n1.setProperty("repl.node", "n1");
        n1.setProperty("repl.peers", "n2");
        n1.setProperty("repl.peer.n2.url", "jdbc:h2:mem:n2;DB_CLOSE_DELAY=-1");
        Properties n2 = new Properties();
        n2.setProperty("repl.node", "n2");
        n2.setProperty("repl.peers", "n1");
        n2.setProperty("repl.peer.n1.url", "jdbc:h2:mem:n1;DB_CLOSE_DELAY=-1");

        try (Connection a = DriverManager.getConnection("jdbc:repl:h2:mem:n1;DB_CLOSE_DELAY=-1", n1);
                Connection b = DriverManager.getConnection("jdbc:repl:h2:mem:n2;DB_CLOSE_DELAY=-1", n2)) {
            a.createStatement().execute("CREATE TABLE item (id INT PRIMARY KEY, name VARCHAR(40))"); // n2 gets it too
            a.createStatement().executeUpdate("INSERT INTO item VALUES (1, 'written at n1')");

            b.unwrap(ReplAdmin.class).waitForPeers(Duration.ofSeconds(30)); // n2 has applied what n1 committed
            try (ResultSet rs = b.createStatement().executeQuery("SELECT name FROM item WHERE id = 1")) {
                rs.next();
                System.out.println(rs.getString(1)); // written at n1
            }
        }
        // README end
        try (Connection raw = DriverManager.getConnection("jdbc:h2:mem:n2;DB_CLOSE_DELAY=-1");
                Statement s = raw.createStatement();
                ResultSet rs = s.executeQuery("SELECT name FROM item WHERE id = 1")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getString(1)).isEqualTo("written at n1");
        }
    }

    @Test
    void hikariCp() throws SQLException {
        try (Connection peer = DriverManager.getConnection("jdbc:h2:mem:shop2;DB_CLOSE_DELAY=-1");
                Statement s = peer.createStatement()) {
            s.execute("CREATE TABLE orders (id INT PRIMARY KEY, total DECIMAL(10,2), updated_at TIMESTAMP(6))");
        }
        // README begin
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl("jdbc:repl:h2:mem:shop1;DB_CLOSE_DELAY=-1");
        config.addDataSourceProperty("repl.node", "shop1");
        config.addDataSourceProperty("repl.peers", "shop2");
        config.addDataSourceProperty("repl.peer.shop2.url", "jdbc:h2:mem:shop2;DB_CLOSE_DELAY=-1");
        config.addDataSourceProperty("repl.timestamp.orders", "updated_at"); // maintained by the driver
        config.addDataSourceProperty("repl.handler.lww.table", "orders");    // last writer wins
        config.addDataSourceProperty("repl.handler.lww.type", "MAXIMUM");
        config.addDataSourceProperty("repl.handler.lww.resolution", "updated_at");
        try (HikariDataSource pool = new HikariDataSource(config);
                Connection c = pool.getConnection()) {
            c.createStatement().execute("CREATE TABLE orders (id INT PRIMARY KEY, total DECIMAL(10,2), updated_at TIMESTAMP(6))");
            c.createStatement().executeUpdate("INSERT INTO orders (id, total) VALUES (7, 19.90)");
        }
        // README end
        try (Connection raw = DriverManager.getConnection("jdbc:h2:mem:shop1;DB_CLOSE_DELAY=-1");
                Statement s = raw.createStatement();
                ResultSet rs = s.executeQuery("SELECT count(*) FROM repl.repl_log WHERE table_name = 'ORDERS' AND command_type = 'INSERT'")) {
            rs.next();
            assertThat(rs.getInt(1)).as("the insert was captured").isEqualTo(1);
        }
    }

    @Test
    void theReadmeShowsThisCode() throws IOException {
        String readme = Files.readString(README);
        List<String> blocks = blocks(Files.readAllLines(SOURCE));
        assertThat(blocks).hasSize(2);
        for (String block : blocks) {
            assertThat(readme).as("README.md holds the quick-start block%n%s", block).contains("```java\n" + block + "```\n");
        }
    }

    /** The quick start's imports, a block of their own in the README, are this file's: they compile and suffice. */
    @Test
    void theReadmesImportsAreThisCodesImports() throws IOException {
        String readme = Files.readString(README).replace("\r\n", "\n");
        java.util.regex.Matcher block = java.util.regex.Pattern.compile("```java\n((?:import [^\n]+;\n)+)```").matcher(readme);
        assertThat(block.find()).as("a ```java block of imports in README.md").isTrue();
        List<String> imports = block.group(1).lines().toList();
        assertThat(Files.readAllLines(SOURCE)).containsAll(imports);
        String quickStart = blocks(Files.readAllLines(SOURCE)).get(0);
        for (String type : List.of("ReplAdmin", "Connection", "DriverManager", "ResultSet", "Duration", "Properties")) {
            assertThat(quickStart).contains(type);
            assertThat(imports).as("the README imports %s, which its quick start uses", type).anyMatch(i -> i.endsWith("." + type + ";"));
        }
        // the HikariCP snippet's imports are named in its sentence
        java.util.regex.Matcher hikari = java.util.regex.Pattern.compile("`(com\\.zaxxer\\.hikari\\.\\w+)`").matcher(readme);
        int named = 0;
        while (hikari.find()) {
            named++;
            assertThat(Files.readAllLines(SOURCE)).contains("import " + hikari.group(1) + ";");
        }
        assertThat(named).as("HikariCP classes the README names").isEqualTo(2);
    }

    /** The marked blocks of this file, each de-indented by its first line's indentation. */
    private static List<String> blocks(List<String> lines) {
        List<String> blocks = new ArrayList<>();
        StringBuilder block = null;
        int indent = 0;
        for (String line : lines) {
            String trimmed = line.trim();
            if (trimmed.equals("// README begin")) {
                block = new StringBuilder();
                indent = line.indexOf('/');
            } else if (trimmed.equals("// README end")) {
                blocks.add(block.toString());
                block = null;
            } else if (block != null) {
                block.append(line.length() >= indent ? line.substring(indent) : line.trim()).append('\n');
            }
        }
        return blocks;
    }
}
