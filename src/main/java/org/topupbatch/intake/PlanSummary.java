package org.topupbatch.intake;

/**
 * What intake made of one file: data rows read, how many were accepted and rejected, and the
 * total price of the accepted rows (after the balance policy).
 */
public record PlanSummary(int rows, int accepted, int rejected, long totalPrice) {
}
