package org.topupbatch.provider;

/** The pagination record (interface 2.4). */
public record Pagination(int page, int limit, long total, int totalPages) {
}
