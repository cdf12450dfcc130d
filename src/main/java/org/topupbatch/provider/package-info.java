/**
 * The provider client: the operations, signing, the answers and their errors, the one rate budget every call passes, and the call log it keeps through an interface the journal implements.
 *
 * <p>Accounts are one list ({@link org.topupbatch.provider.Accounts}): the accounts of topup.providers, or the one
 * account of topup.base-url as a list of one, which has no name so that its calls, price list, balances and rows are
 * journaled as they always were. Each account has its own {@link org.topupbatch.provider.ProviderGateway} (client, rate
 * budget, retries) and {@link org.topupbatch.provider.AccountLimitsRefresh}; what is asked of one account goes to its
 * gateway ({@code Accounts.of(name)}), what sees one provider (the total balance, the summed rate, a 429 that pauses
 * everyone, the limits' refresh) asks the list. No class stands for "the accounts" by extending the one-account
 * classes. The config package builds the list (config's {@code AccountParts}: each account's endpoint, budget, stop
 * gate, balances and price list), and the tracking, the webhooks (one route file, routes/track-webhook.yaml) and the
 * submit, intake and report steps read it.
 *
 * <p>May use the packages below it: settings. Nothing below it may use it. The order of the packages is checked by {@code PackageLayersTest}.
 */
package org.topupbatch.provider;
