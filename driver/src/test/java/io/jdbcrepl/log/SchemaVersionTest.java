package io.jdbcrepl.log;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.SQLException;
import org.junit.jupiter.api.Test;

class SchemaVersionTest {

    @Test
    void newerTablesAreRefusedNamingBothVersionsWithAStateAPoolKeeps() {
        SQLException e = SchemaVersion.newer("repl", 7);
        assertThat(e.getSQLState()).isEqualTo("55000");
        assertThat(e.getMessage()).startsWith("The driver's tables in schema repl are at version 7, newer than this"
                + " driver understands (version " + SchemaVersion.CURRENT + ")");
    }

    @Test
    void olderTablesWithInstallNoneNameBothVersionsAndTheInstallCommand() {
        assertThat(SchemaVersion.olderWithoutInstall("hr_repl", 2).getMessage())
                .startsWith("The driver's tables in schema hr_repl are at version 2, older than this driver's version "
                        + SchemaVersion.CURRENT + ", and repl.install=none")
                .contains("install command as their owner");
        assertThat(SchemaVersion.olderWithoutInstall("repl", SchemaVersion.UNRECORDED).getMessage())
                .contains("at version 1 (no version recorded: installed before versions were");
    }
}
