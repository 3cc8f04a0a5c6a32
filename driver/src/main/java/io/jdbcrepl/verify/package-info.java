/**
 * Comparing a table's rows across nodes ({@code verify}, SPEC 7): by key, in bounded memory, with
 * values compared by what they mean rather than how each database spells them.
 */
package io.jdbcrepl.verify;
