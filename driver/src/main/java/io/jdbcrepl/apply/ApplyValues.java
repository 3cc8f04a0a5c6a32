package io.jdbcrepl.apply;

import io.jdbcrepl.lcr.ValueType;

import java.sql.PreparedStatement;
import java.sql.SQLException;

/**
 * What differs per database in storing a logged value ({@link ValueBinding}), given as the
 * destination type's Java value: which values it cannot hold, and how each is bound so that it
 * arrives unchanged.
 */
public interface ApplyValues {

    /** Why a column of type {@code dest} here cannot hold {@code value} (then refused), or null. */
    String refusal(Object value, ValueType dest);

    /** Binds {@code value} (null included) for a column of type {@code dest}. */
    void bind(PreparedStatement ps, int index, Object value, ValueType dest) throws SQLException;
}
