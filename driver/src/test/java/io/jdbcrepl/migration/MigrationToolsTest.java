package io.jdbcrepl.migration;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import io.jdbcrepl.ReplDriver;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Properties;
import liquibase.database.DatabaseFactory;
import org.flywaydb.core.internal.database.DatabaseType;
import org.flywaydb.core.internal.database.DatabaseTypeRegister;
import org.junit.jupiter.api.Test;

/**
 * Flyway and Liquibase name the driver for a {@code jdbc:repl:} URL through the plugins registered in
 * the driver's jar, and only their ServiceLoaders reach those plugins (SPEC 8.3).
 */
class MigrationToolsTest {

    @Test
    void flywayPicksTheDriverForAReplUrlOfAVendorItKnows() {
        // flyway-core alone knows H2; the vendor modules are not on this module's class path
        assertThat(DatabaseTypeRegister.getDatabaseTypesForUrl("jdbc:repl:h2:mem:flyway;repl.node=n1", null))
                .singleElement().isInstanceOf(ReplFlywayDatabaseType.class)
                .satisfies(t -> assertThat(((DatabaseType) t).getDriverClass("jdbc:repl:h2:mem:x", getClass().getClassLoader()))
                        .isEqualTo(ReplDriver.class.getName()));
        assertThat(DatabaseTypeRegister.getDatabaseTypesForUrl("jdbc:h2:mem:flyway", null))
                .noneMatch(ReplFlywayDatabaseType.class::isInstance);
        assertThat(new ReplFlywayDatabaseType().handlesJDBCUrl("jdbc:repl:nosuchdb://h/d")).as("a vendor Flyway lacks").isFalse();
    }

    @Test
    void flywayChoosesTheConnectionsVendorTypeNotThisOne() {
        assertThat(new ReplFlywayDatabaseType().handlesDatabaseProductNameAndVersion("H2", "2.4.240", null)).isFalse();
    }

    @Test
    void flywayPassesTheVendorsDefaultConnectionPropertiesOn() {
        Properties props = new Properties();
        new ReplFlywayDatabaseType().setDefaultConnectionProps("jdbc:repl:nosuchdb://h/d", props, getClass().getClassLoader());
        assertThat(props).isEmpty(); // nothing to pass on for a vendor Flyway lacks; H2's type sets none either
    }

    @Test
    void liquibaseFindsTheDriverForEveryReplUrlAndOnlyThose() {
        DatabaseFactory factory = DatabaseFactory.getInstance();
        for (String url : new String[] {"jdbc:repl:postgresql://h/db?repl.node=n1", "jdbc:repl:mariadb://h/db",
                "jdbc:repl:mysql://h/db", "jdbc:repl:h2:mem:x;repl.node=n1"}) {
            assertThat(factory.findDefaultDriver(url)).as(url).isEqualTo(ReplDriver.class.getName());
        }
        assertThat(factory.findDefaultDriver("jdbc:postgresql://h/db")).isEqualTo("org.postgresql.Driver");
        assertThat(new ReplLiquibaseDatabase().getDefaultDriver("jdbc:h2:mem:x")).isNull();
    }

    @Test
    void theToolsServiceFilesNameThePlugins() throws IOException {
        assertThat(service("org.flywaydb.core.extensibility.Plugin")).isEqualTo(ReplFlywayDatabaseType.class.getName());
        assertThat(service("liquibase.database.Database")).isEqualTo(ReplLiquibaseDatabase.class.getName());
    }

    /** The driver works without either tool: nothing outside this package refers to it. */
    @Test
    void nothingElseInTheDriverNeedsThePlugins() {
        JavaClasses main = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.jdbcrepl");
        noClasses().that().resideOutsideOfPackage("io.jdbcrepl.migration..")
                .should().dependOnClassesThat().resideInAnyPackage("io.jdbcrepl.migration..", "org.flywaydb..", "liquibase..")
                .check(main);
    }

    private static String service(String name) throws IOException {
        try (InputStream in = MigrationToolsTest.class.getResourceAsStream("/META-INF/services/" + name)) {
            assertThat(in).as(name).isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).trim();
        }
    }
}
