package io.jdbcrepl.mview;

import java.util.List;

/** An SQL text and the values of its parameters, in order. */
public record BoundSql(String sql, List<Object> parameters) {
}
