package io.jdbcrepl.mview;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class LogTablesTest {

    @Test
    void theH2TriggerIsCalledByItsClassName() {
        assertThat(LogTables.H2_TRIGGER_CLASS).isEqualTo(H2LogTrigger.class.getName());
    }

    @Test
    void h2TriggerNamesSayWhetherTheLogHasNewValues() {
        assertThat(LogTables.h2TriggerHasNewValues(LogTables.h2TriggerName("MLOG$_T", true))).isTrue();
        assertThat(LogTables.h2TriggerHasNewValues(LogTables.h2TriggerName("MLOG$_T", false))).isFalse();
    }

    @Test
    void allColumnsSetsOracleBitsFromOne() {
        assertThat(LogTables.allColumns(3)).containsExactly(0b1110);
        assertThat(LogTables.allColumns(8)).containsExactly((byte) 0xFE, 1);
    }
}
