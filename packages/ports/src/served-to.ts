/**
 * The workspace whose key made a request, for a write that checks its dataset as it writes (one
 * statement instead of a read and a write): it writes only while the dataset is that workspace's
 * and serves the API (`enable_api`), and otherwise answers as it answers for a missing item. The
 * caller reads the dataset, only then, to tell which.
 */
export type ServedTo = string;
