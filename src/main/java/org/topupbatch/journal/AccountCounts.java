package org.topupbatch.journal;

/**
 * Several accounts (docs/accounts-and-dialects.md#several-accounts): a batch's rows at one account, by outcome, as
 * {@code status BATCH} and the dashboard show them. A row counts at the account it stands at now (its
 * route's stop of its attempt); {@code movedHere} are those that reached it after an earlier account
 * refused them in a way that proves no order was made there. {@code charged}: the price of its
 * success and pending orders, as the report counts it. Rejected rows count nowhere.
 */
public record AccountCounts(long success, long failed, long pending, long queued, long movedHere, long charged) {

    public static final AccountCounts NONE = new AccountCounts(0, 0, 0, 0, 0, 0);

    /** Orders sent there: success, failed and pending (the summary's {@code submitted}). */
    public long submitted() {
        return success + failed + pending;
    }

    /** These counts and {@code rows} rows in {@code state} at attempt {@code attempt}, whose prices add up to {@code prices}. */
    AccountCounts plus(RowState state, int attempt, long rows, long prices) {
        if (state == RowState.REJECTED) {
            return this;
        }
        boolean charging = state == RowState.SUCCESS || state == RowState.PENDING;
        return new AccountCounts(
                success + (state == RowState.SUCCESS ? rows : 0),
                failed + (state == RowState.FAILED || state == RowState.REFUSED ? rows : 0),
                pending + (state == RowState.PENDING || state == RowState.UNKNOWN || state == RowState.SENDING ? rows : 0),
                queued + (state == RowState.ACCEPTED ? rows : 0),
                movedHere + (attempt > 1 ? rows : 0),
                charged + (charging ? prices : 0));
    }
}
