package io.jdbcrepl.log;

import static org.assertj.core.api.Assertions.assertThat;

import io.jdbcrepl.dialect.Dialect;

import java.util.List;
import java.util.Locale;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class SchemaUpgradesTest {

    @ParameterizedTest
    @MethodSource("io.jdbcrepl.dialect.Dialect#all")
    void theStepsLeadOneByOneFromTheFirstReleaseToTheCurrentVersion(Dialect dialect) {
        List<Integer> to = SchemaUpgrades.all(dialect).stream().map(SchemaUpgrades.Step::to).toList();
        assertThat(to.get(0)).isEqualTo(SchemaVersion.UNRECORDED + 1);
        for (int i = 1; i < to.size(); i++) assertThat(to.get(i)).isEqualTo(to.get(i - 1) + 1);
        assertThat(to.get(to.size() - 1)).isEqualTo(SchemaVersion.CURRENT);
    }

    @ParameterizedTest
    @MethodSource("io.jdbcrepl.dialect.Dialect#all")
    void anInstallRunsOnlyTheStepsAfterItsVersion(Dialect dialect) {
        assertThat(SchemaUpgrades.after(dialect, SchemaVersion.NOTHING)).isEqualTo(SchemaUpgrades.all(dialect));
        assertThat(SchemaUpgrades.after(dialect, SchemaVersion.UNRECORDED)).isEqualTo(SchemaUpgrades.all(dialect));
        assertThat(SchemaUpgrades.after(dialect, 2)).extracting(SchemaUpgrades.Step::to).containsExactly(3, 4, 5);
        assertThat(SchemaUpgrades.after(dialect, SchemaVersion.CURRENT)).isEmpty();
    }

    /** An upgraded install ends up with the columns a fresh one has, of the same type. */
    @ParameterizedTest
    @MethodSource("io.jdbcrepl.dialect.Dialect#all")
    void everyAddedColumnIsInTheCurrentDefinitionOfItsTable(Dialect dialect) {
        ChangeLogSchema names = new ChangeLogSchema(dialect, "repl");
        List<String> create = new TableDefinitions(dialect, names).create();
        for (SchemaUpgrades.Step step : SchemaUpgrades.all(dialect)) {
            for (SchemaUpgrades.Column column : step.columns()) {
                String definition = create.stream().filter(ddl -> ddl.startsWith("CREATE TABLE IF NOT EXISTS "
                        + names.table(column.table()) + " (")).findFirst().orElseThrow();
                assertThat(definition.toLowerCase(Locale.ROOT)).as(column.toString())
                        .contains(" " + column.name() + " " + column.type().toLowerCase(Locale.ROOT));
            }
        }
    }

    @ParameterizedTest
    @MethodSource("io.jdbcrepl.dialect.Dialect#all")
    void everyTableIsCreatedOnlyWhenMissingAndTheVersionTableLast(Dialect dialect) {
        ChangeLogSchema names = new ChangeLogSchema(dialect, "repl");
        List<String> create = new TableDefinitions(dialect, names).create();
        assertThat(create).filteredOn(ddl -> ddl.startsWith("CREATE")).allMatch(ddl -> ddl.contains(" IF NOT EXISTS "));
        assertThat(create.get(create.size() - 1)).startsWith("CREATE TABLE IF NOT EXISTS " + names.table("repl_version"));
        assertThat(create).filteredOn(ddl -> ddl.startsWith("CREATE TABLE")).hasSize(switch (dialect.name()) {
                    case "postgresql" -> 10;
                    case "h2" -> 13;
                    default -> 12; // MySQL, MariaDB
                });
    }
}
