package io.jdbcrepl.it.apply;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.jdbcrepl.it.support.TestDatabase;
import io.jdbcrepl.it.support.Vendor;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import liquibase.command.CommandScope;
import liquibase.database.Database;
import liquibase.database.DatabaseFactory;
import liquibase.database.jvm.JdbcConnection;
import liquibase.command.core.UpdateCommandStep;
import liquibase.command.core.helpers.DbUrlConnectionArgumentsCommandStep;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.output.MigrateResult;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Flyway and Liquibase run through a {@code jdbc:repl:} URL with {@code repl.node} (SPEC 8.3): the
 * tools find the driver by the URL, migrate with their support for the connection's vendor, and
 * the application's DML through the same URL is captured with the migrated columns afterwards.
 * One node: DDL replication is {@link MigrationMeshIT}'s subject.
 */
class MigrationIT extends ClusterTest {

    private static final String FLYWAY_MIGRATIONS = "classpath:db/migrationit";
    private static final String LIQUIBASE_CHANGELOG = "db/liquibaseit/changelog.xml";

    /** Flyway's API with url, user and password: Flyway loads io.jdbcrepl.ReplDriver itself. */
    @ParameterizedTest(name = "{0}")
    @EnumSource(value = Vendor.class, names = {"POSTGRESQL", "MARIADB", "MYSQL_DRIVER_ON_MARIADB", "H2"})
    void flywayMigratesThroughAReplUrl(Vendor vendor) throws Exception {
        TestDatabase db = databases.create(vendor, "flyurl");
        String url = db.replUrl(Map.of("repl.node", "n1"));
        Flyway flyway = Flyway.configure().dataSource(url, db.user(), db.password()).locations(FLYWAY_MIGRATIONS).load();
        assertFlywayMigrates(db, flyway, url);
    }

    /** Flyway given a pool on the URL: it chooses its database type by the connection's product name. */
    @ParameterizedTest(name = "{0}")
    @EnumSource(value = Vendor.class, names = {"POSTGRESQL", "MARIADB", "H2"})
    void flywayMigratesThroughAPoolOnAReplUrl(Vendor vendor) throws Exception {
        TestDatabase db = databases.create(vendor, "flypool");
        String url = db.replUrl(Map.of("repl.node", "n1"));
        try (HikariDataSource pool = pool(db, url)) {
            assertFlywayMigrates(db, Flyway.configure().dataSource(pool).locations(FLYWAY_MIGRATIONS).load(), url);
        }
    }

    /** Liquibase's update command with url, user and password: Liquibase loads io.jdbcrepl.ReplDriver itself. */
    @ParameterizedTest(name = "{0}")
    @EnumSource(value = Vendor.class, names = {"POSTGRESQL", "MARIADB", "MYSQL_DRIVER_ON_MARIADB", "H2"})
    void liquibaseUpdatesThroughAReplUrl(Vendor vendor) throws Exception {
        TestDatabase db = databases.create(vendor, "liquibase");
        String url = db.replUrl(Map.of("repl.node", "n1"));
        liquibaseUpdate(url, db.user(), db.password());
        assertMigrated(db);
        assertThat(count(db, "SELECT count(*) FROM DATABASECHANGELOG")).as("changesets in Liquibase's history").isEqualTo(5);
        liquibaseUpdate(url, db.user(), db.password()); // nothing left to run
        assertThat(count(db, "SELECT count(*) FROM DATABASECHANGELOG")).isEqualTo(5);
        assertApplicationDmlIsCaptured(db, url);
    }

    /** Liquibase given a connection of a pool on the URL: it chooses its database by the product name. */
    @ParameterizedTest(name = "{0}")
    @EnumSource(value = Vendor.class, names = {"POSTGRESQL", "MARIADB", "H2"})
    void liquibaseUpdatesThroughAPooledConnection(Vendor vendor) throws Exception {
        TestDatabase db = databases.create(vendor, "lbpool");
        String url = db.replUrl(Map.of("repl.node", "n1"));
        try (HikariDataSource pool = pool(db, url); Connection c = pool.getConnection()) {
            Database database = DatabaseFactory.getInstance().findCorrectDatabaseImplementation(new JdbcConnection(c));
            assertThat(database.getShortName()).isEqualTo(vendor.name().toLowerCase(Locale.ROOT));
            new CommandScope(UpdateCommandStep.COMMAND_NAME)
                    .addArgumentValue(DbUrlConnectionArgumentsCommandStep.DATABASE_ARG, database)
                    .addArgumentValue(UpdateCommandStep.CHANGELOG_FILE_ARG, LIQUIBASE_CHANGELOG)
                    .execute();
        }
        assertMigrated(db);
        assertThat(count(db, "SELECT count(*) FROM DATABASECHANGELOG")).isEqualTo(5);
        assertApplicationDmlIsCaptured(db, url);
    }

    static void liquibaseUpdate(String url, String user, String password) throws Exception {
        new CommandScope(UpdateCommandStep.COMMAND_NAME)
                .addArgumentValue(DbUrlConnectionArgumentsCommandStep.URL_ARG, url)
                .addArgumentValue(DbUrlConnectionArgumentsCommandStep.USERNAME_ARG, user)
                .addArgumentValue(DbUrlConnectionArgumentsCommandStep.PASSWORD_ARG, password)
                .addArgumentValue(UpdateCommandStep.CHANGELOG_FILE_ARG, LIQUIBASE_CHANGELOG)
                .execute();
    }

    private static void assertFlywayMigrates(TestDatabase db, Flyway flyway, String url) throws SQLException {
        MigrateResult result = flyway.migrate();
        assertThat(result.success).isTrue();
        assertThat(result.migrationsExecuted).isEqualTo(5);
        assertMigrated(db);
        // the history table works through the driver: info reads it, validate agrees, a second migrate runs nothing
        assertThat(flyway.info().applied()).hasSize(5).allMatch(m -> m.getState().isApplied());
        flyway.validate();
        assertThat(flyway.migrate().migrationsExecuted).isZero();
        String history = "flyway_schema_history";
        // on H2 Flyway creates the table with a marker row (installed_rank -1) by CREATE TABLE … AS SELECT:
        // the table's DDL LCR, then that row as an INSERT LCR
        long rows = count(db, "SELECT count(*) FROM " + quoted(db, history));
        assertThat(rows).isEqualTo(db.vendor() == Vendor.H2 ? 6 : 5);
        assertThat(count(db, "SELECT count(*) FROM repl_log WHERE lower(table_name) = '" + history + "' AND command_type = 'INSERT'"))
                .as("history rows captured: with the default repl.tables Flyway's history replicates like any table")
                .isEqualTo(rows);
        assertThat(count(db, "SELECT count(*) FROM repl_log WHERE lower(table_name) = '" + history + "' AND command_type = 'DDL'"))
                .as("its CREATE TABLE, and its indexes").isGreaterThanOrEqualTo(1);
        assertApplicationDmlIsCaptured(db, url);
    }

    /** Flyway creates its history table and columns quoted in lower case, so H2 keeps their case. */
    private static String quoted(TestDatabase db, String table) {
        return db.vendor() == Vendor.H2 ? "\"" + table + "\"" : table;
    }

    /** The schema after the five steps: tables, a default, a renamed and a dropped column, an index. */
    static void assertMigrated(TestDatabase db) throws SQLException {
        try (Connection c = db.openRaw()) {
            assertThat(columns(c, db, "customer")).containsExactly("id", "full_name", "tier");
            assertThat(columns(c, db, "purchase")).containsExactly("id", "customer_id", "amount");
            assertThat(indexes(c, db, "purchase")).contains("purchase_customer");
        }
    }

    /**
     * The application's DML through the same URL after the migrations: captured with the renamed
     * column and the new column's default, without the dropped column.
     */
    static void assertApplicationDmlIsCaptured(TestDatabase db, String url) throws SQLException {
        try (Connection c = DriverManager.getConnection(url, db.credentials()); Statement s = c.createStatement()) {
            assertThat(s.executeUpdate("INSERT INTO customer (id, full_name) VALUES (2, 'Grace')")).isEqualTo(1);
            assertThat(s.executeUpdate("UPDATE customer SET tier = 'gold' WHERE id = 1")).isEqualTo(1);
        }
        List<String[]> lcrs = new ArrayList<>();
        try (Connection c = db.openRaw(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(db.driverTables(
                "SELECT command_type, new_values FROM repl_log WHERE lower(table_name) = 'customer' AND command_type <> 'DDL' ORDER BY position"))) {
            while (rs.next()) lcrs.add(new String[] {rs.getString(1), rs.getString(2).toLowerCase(Locale.ROOT)});
        }
        assertThat(lcrs).as("LCRs of customer: the migration's row, then the application's two changes").hasSize(3);
        assertThat(lcrs.get(0)[0]).isEqualTo("INSERT");
        assertThat(lcrs.get(0)[1]).contains("\"name\"", "ada", "\"legacy_code\"", "a1");
        assertThat(lcrs.get(1)[0]).isEqualTo("INSERT");
        assertThat(lcrs.get(1)[1]).contains("\"full_name\"", "grace").doesNotContain("\"name\"", "legacy_code");
        assertThat(lcrs.get(2)[0]).isEqualTo("UPDATE");
        assertThat(lcrs.get(2)[1]).contains("\"tier\"", "gold").doesNotContain("legacy_code");
        try (Connection c = db.openRaw(); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT id, full_name, tier FROM customer ORDER BY id")) {
            List<String> rows = new ArrayList<>();
            while (rs.next()) rows.add(rs.getInt(1) + " " + rs.getString(2) + " " + rs.getString(3));
            assertThat(rows).containsExactly("1 Ada gold", "2 Grace basic");
        }
    }

    /** The columns of an application table in their order, lower case, read on a raw connection. */
    static List<String> columns(Connection c, TestDatabase db, String table) throws SQLException {
        List<String> out = new ArrayList<>();
        DatabaseMetaData md = c.getMetaData();
        try (ResultSet rs = md.getColumns(catalog(c, db), schema(c, db), stored(db, table), null)) {
            while (rs.next()) out.add(rs.getString("COLUMN_NAME").toLowerCase(Locale.ROOT));
        }
        return out;
    }

    /** The index names of an application table, lower case. */
    static TreeSet<String> indexes(Connection c, TestDatabase db, String table) throws SQLException {
        TreeSet<String> out = new TreeSet<>();
        try (ResultSet rs = c.getMetaData().getIndexInfo(catalog(c, db), schema(c, db), stored(db, table), false, false)) {
            while (rs.next()) {
                if (rs.getString("INDEX_NAME") != null) out.add(rs.getString("INDEX_NAME").toLowerCase(Locale.ROOT));
            }
        }
        return out;
    }

    static String catalog(Connection c, TestDatabase db) throws SQLException {
        return db.vendor().isMariaDbServer() ? c.getCatalog() : null;
    }

    static String schema(Connection c, TestDatabase db) throws SQLException {
        return db.vendor().isMariaDbServer() ? null : c.getSchema();
    }

    static String stored(TestDatabase db, String table) {
        return db.vendor() == Vendor.H2 ? table.toUpperCase(Locale.ROOT) : table;
    }

    static long count(TestDatabase db, String sql) throws SQLException {
        try (Connection c = db.openRaw(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(db.driverTables(sql))) {
            rs.next();
            return rs.getLong(1);
        }
    }

    static HikariDataSource pool(TestDatabase db, String url) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(url);
        config.setUsername(db.user());
        config.setPassword(db.password());
        config.setMaximumPoolSize(2);
        return new HikariDataSource(config);
    }
}
