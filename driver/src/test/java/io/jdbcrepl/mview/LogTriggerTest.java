package io.jdbcrepl.mview;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class LogTriggerTest {

    @Test
    void allColumnsSetsOracleBitsFromOne() {
        assertThat(LogTrigger.allColumns(3)).containsExactly(0b1110);
        assertThat(LogTrigger.allColumns(8)).containsExactly((byte) 0xFE, 1);
    }
}
