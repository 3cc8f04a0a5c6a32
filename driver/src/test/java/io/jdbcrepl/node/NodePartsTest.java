package io.jdbcrepl.node;

import io.jdbcrepl.ddl.TableDdl;
import io.jdbcrepl.demo.DemoDatabase;
import io.jdbcrepl.dialect.Dialect;
import io.jdbcrepl.verify.VerifySql;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;

import static org.assertj.core.api.Assertions.assertThat;

/** Every database has the parts of node, verify, demo and creating a joining node's tables; MariaDB those of MySQL. */
class NodePartsTest {

    @Test
    void everyDatabaseHasThem() {
        for (Dialect d : Dialect.all()) {
            for (Class<?> part : new Class<?>[] {Catalogs.class, Notifier.class, VerifySql.class, DemoDatabase.class, TableDdl.class}) {
                assertThat(d.part(part)).as(d.name() + " " + part.getSimpleName()).isNotNull();
            }
        }
        assertThat(Dialect.named("mariadb").part(Catalogs.class)).hasSameClassAs(Dialect.named("mysql").part(Catalogs.class));
    }

    @Test
    void onlyMySqlAndMariaDbCallASchemaACatalog() {
        for (Dialect d : Dialect.all()) {
            assertThat(d.schemasAreCatalogs()).as(d.name())
                    .isEqualTo(d.name().equals("mysql") || d.name().equals("mariadb"));
        }
    }

    @Test
    void onlyPostgresqlNotifies() {
        for (Dialect d : Dialect.all()) {
            Notifier.Sender sender = d.part(Notifier.class).sender("parts-test", () -> {
                throw new java.sql.SQLException("not opened here");
            });
            assertThat(sender == Notifier.Sender.NONE).as(d.name()).isEqualTo(!d.name().equals("postgresql"));
            sender.close(0);
        }
    }

    @Test
    void h2ReadsCurrentSchemaAndUniqueColumnsFromItsMetadata() throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:h2:mem:"); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE t (id INT PRIMARY KEY, code VARCHAR(10) UNIQUE, note VARCHAR(10))");
            Catalogs catalogs = Dialect.named("h2").part(Catalogs.class);
            assertThat(catalogs.currentSchema(c)).isEqualTo("PUBLIC");
            assertThat(catalogs.uniqueColumns(c, "PUBLIC", "T")).containsExactlyInAnyOrder("ID", "CODE");
            assertThat(catalogs.constraints(c, "PUBLIC", "T")).isEmpty();
        }
    }
}
