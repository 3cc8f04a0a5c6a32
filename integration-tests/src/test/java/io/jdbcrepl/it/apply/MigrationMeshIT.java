package io.jdbcrepl.it.apply;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import io.jdbcrepl.it.support.TestDatabase;
import io.jdbcrepl.it.support.Vendor;
import io.jdbcrepl.verify.TableVerifier;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.output.MigrateResult;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Migrations through one node of three while the application writes on every node (SPEC 8.3): the
 * migrations' DDL replicates in the log's order, so afterwards every node has the same schema, every
 * table verifies identical, and nothing waits in an error queue.
 *
 * <p>Needs DDL replication ({@code repl.ddl=replicate}, a DDL LCR applied on the peers), which is
 * being built: enable it by removing {@code @Disabled} once that lands. Run it alone with
 * {@code -Dit.test=MigrationMeshIT}; before that, add
 * {@code -Djunit.jupiter.conditions.deactivate=org.junit.*DisabledCondition} to watch it fail.
 */

class MigrationMeshIT extends ClusterTest {

    private static final int WRITER_THREADS = 2;
    private static final int WRITER_TRANSACTIONS = 60;

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = Vendor.class, names = {"POSTGRESQL", "MARIADB", "H2"})
    void flywayMigratesThroughOneNodeWhileEveryNodeWrites(Vendor vendor) throws Exception {
        meshMigrates(vendor, "flymesh", () -> {
            MigrateResult result = Flyway.configure()
                    .dataSource(cluster.url(0), cluster.db(0).user(), cluster.db(0).password())
                    .locations("classpath:db/migrationit")
                    .baselineOnMigrate(true).baselineVersion("0") // the writers' table is there before V1
                    .load().migrate();
            assertThat(result.success).isTrue();
            assertThat(result.migrationsExecuted).isEqualTo(5);
        });
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = Vendor.class, names = {"POSTGRESQL", "MARIADB", "H2"})
    void liquibaseUpdatesThroughOneNodeWhileEveryNodeWrites(Vendor vendor) throws Exception {
        meshMigrates(vendor, "lbmesh",
                () -> MigrationIT.liquibaseUpdate(cluster.url(0), cluster.db(0).user(), cluster.db(0).password()));
    }

    private interface Migration {
        void run() throws Exception;
    }

    private void meshMigrates(Vendor vendor, String label, Migration migration) throws Exception {
        cluster = new Cluster(databases.nodes(vendor, label, 3));
        cluster.ddl(Workload::itemDdl);
        List<HikariDataSource> pools = new ArrayList<>();
        ExecutorService writers = Executors.newFixedThreadPool(cluster.size());
        try {
            List<Future<?>> writing = new ArrayList<>();
            for (int i = 0; i < cluster.size(); i++) {
                HikariDataSource pool = cluster.pool(i, WRITER_THREADS);
                pools.add(pool);
                int node = i;
                writing.add(writers.submit(() -> {
                    Workload.run(pool, node, WRITER_THREADS, WRITER_TRANSACTIONS);
                    return null;
                }));
            }
            migration.run();
            for (Future<?> f : writing) f.get();
        } finally {
            writers.shutdownNow();
            for (HikariDataSource pool : pools) pool.close();
        }
        cluster.waitForAll(); // every node has applied the migrations' DDL
        // the application on every node uses the migrated schema
        for (int i = 0; i < cluster.size(); i++) {
            cluster.execute(i, "INSERT INTO customer (id, full_name) VALUES (" + (10 + i) + ", 'from " + Cluster.name(i) + "')");
            cluster.execute(i, "INSERT INTO purchase (id, customer_id, amount) VALUES (" + (10 + i) + ", 1, 9.99)");
        }
        cluster.execute(2, "UPDATE customer SET tier = 'gold' WHERE id = 1");
        cluster.waitForAll();

        List<String> schemaOfA = schema(cluster.db(0));
        assertThat(schemaOfA).as("n1's schema after the migrations").anyMatch(s -> s.startsWith("customer.full_name "))
                .noneMatch(s -> s.contains("legacy_code")).anyMatch(s -> s.startsWith("purchase index purchase_customer"));
        List<String> tables = new ArrayList<>(new TreeSet<>(schemaOfA.stream().map(s -> s.substring(0, s.indexOf(' ')))
                .map(s -> s.contains(".") ? s.substring(0, s.indexOf('.')) : s).toList()));
        for (int i = 0; i < cluster.size(); i++) {
            assertThat(schema(cluster.db(i))).as("schema of %s", Cluster.name(i)).isEqualTo(schemaOfA);
            assertThat(cluster.count(i, "SELECT count(*) FROM repl_error")).as("error queue of %s", Cluster.name(i)).isZero();
        }
        for (String table : tables) {
            TableVerifier.Report report = cluster.verify(table);
            assertThat(report.agree()).as("verify %s: %s", table, report).isTrue();
        }
        assertThat(cluster.rows(1, "customer", "id")).contains("id=1, full_name=Ada, tier=gold", "id=10, full_name=from n1, tier=basic");
    }

    /**
     * The application schema of a node as comparable lines: each column with its type, size,
     * nullability and default, each index with its columns, read on a raw connection.
     */
    private static List<String> schema(TestDatabase db) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Connection c = db.openRaw()) {
            DatabaseMetaData md = c.getMetaData();
            String catalog = MigrationIT.catalog(c, db);
            String schema = MigrationIT.schema(c, db);
            List<String> tables = new ArrayList<>();
            try (ResultSet rs = md.getTables(catalog, schema, "%", new String[] {"TABLE"})) {
                while (rs.next()) tables.add(rs.getString("TABLE_NAME"));
            }
            for (String table : tables) {
                String name = table.toLowerCase(Locale.ROOT);
                try (ResultSet rs = md.getColumns(catalog, schema, table, null)) {
                    while (rs.next()) {
                        out.add(name + "." + rs.getString("COLUMN_NAME").toLowerCase(Locale.ROOT) + " " + rs.getString("TYPE_NAME")
                                + "(" + rs.getInt("COLUMN_SIZE") + "," + rs.getInt("DECIMAL_DIGITS") + ") nullable="
                                + rs.getString("IS_NULLABLE") + " default=" + rs.getString("COLUMN_DEF"));
                    }
                }
                try (ResultSet rs = md.getIndexInfo(catalog, schema, table, false, false)) {
                    while (rs.next()) {
                        if (rs.getString("INDEX_NAME") == null) continue;
                        String index = rs.getString("INDEX_NAME").toLowerCase(Locale.ROOT);
                        out.add(name + " index " + (index.startsWith("primary_key_") ? "primary_key" : index) + " "
                                + rs.getString("COLUMN_NAME").toLowerCase(Locale.ROOT) + " unique=" + !rs.getBoolean("NON_UNIQUE"));
                    }
                }
            }
        }
        out.sort(null);
        return out;
    }
}
