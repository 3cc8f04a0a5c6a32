package io.jdbcrepl.apply;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jdbcrepl.log.Position;
import java.sql.SQLException;
import org.junit.jupiter.api.Test;

/** A stored position of another kind than the peer's reader takes: its database was replaced by another vendor's. */
class ProgressStoreTest {

    @Test
    void aPositionOfTheReadersKindPasses() throws SQLException {
        Position stored = new Position.Epoch(3, 17, "n2-9");
        assertThat(ProgressStore.ofKind(stored, Position.initial(false), "n1", "n2")).isSameAs(stored);
    }

    @Test
    void aPositionOfAnotherKindIsAnErrorNamingThePeerAndWhatWasFound() {
        Position stored = new Position.Snapshot("10:12:", null, 0, null);
        assertThatThrownBy(() -> ProgressStore.ofKind(stored, Position.initial(false), "n1", "n2"))
                .isInstanceOf(SQLException.class)
                .hasMessageContaining("repl_progress at n1 holds " + stored.encode() + " for peer n2")
                .hasMessageContaining("snapshot (PostgreSQL)")
                .hasMessageContaining("now an epoch")
                .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("55000"));
    }
}
