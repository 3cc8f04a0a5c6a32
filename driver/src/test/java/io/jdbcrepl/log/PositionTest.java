package io.jdbcrepl.log;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class PositionTest {

    @Test
    void snapshotPositionsRoundTrip() {
        Position.Snapshot fresh = (Position.Snapshot) Position.initial(true);
        assertThat(fresh.low()).isNull();
        assertThat(fresh.inBatch()).isFalse();
        assertThat(Position.decode(fresh.encode())).isEqualTo(fresh);

        Position.Snapshot inBatch = new Position.Snapshot("100:105:101,103", "104:110:104", 0, null).after(42, "102");
        assertThat(inBatch.encode()).isEqualTo("pg|100:105:101,103|104:110:104|42|102");
        assertThat(Position.decode(inBatch.encode())).isEqualTo(inBatch);
        assertThat(inBatch.closed()).isEqualTo(new Position.Snapshot("104:110:104", null, 0, null));
        assertThat(inBatch.closed().closed()).isEqualTo(inBatch.closed());
    }

    @Test
    void epochPositionsRoundTrip() {
        Position.Epoch start = (Position.Epoch) Position.initial(false);
        assertThat(start).isEqualTo(new Position.Epoch(0, 0, ""));
        Position.Epoch p = new Position.Epoch(7, 1234, "0a1b2c3d4e5f6071-99");
        assertThat(p.encode()).isEqualTo("epoch|7|1234|0a1b2c3d4e5f6071-99");
        assertThat(Position.decode(p.encode())).isEqualTo(p);
        assertThat(Position.decode(start.encode())).isEqualTo(start);
    }

    @Test
    void garbageIsRefusedNamingTheText() {
        for (String bad : new String[] {"", "pg|1", "epoch|x|1|t", "lsn|0/16B3748"}) {
            assertThatThrownBy(() -> Position.decode(bad)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("'" + bad + "'");
        }
    }

    @Test
    void purgeOrderOfEpochsIsTheReadOrder() {
        assertThat(Purger.compare(new Position.Epoch(1, 9, "b"), new Position.Epoch(2, 1, "a"))).isNegative();
        assertThat(Purger.compare(new Position.Epoch(2, 1, "b"), new Position.Epoch(2, 1, "a"))).isPositive();
        assertThat(Purger.compare(new Position.Epoch(2, 3, "a"), new Position.Epoch(2, 3, "a"))).isZero();
    }
}
