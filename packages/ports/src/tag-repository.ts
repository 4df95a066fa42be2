import type { CountedTag, Dataset, Tag, TagBinding, TagType } from "@service-api/domain";

/** What Create Tag Binding asks to write: each tag asked for, once, with the id its new binding takes. */
export interface DatasetBinding {
  workspaceId: string;
  datasetId: string;
  tags: readonly { tagId: string; bindingId: string }[];
  createdAt: number;
}

/** What a rename in one statement found: the item as renamed, no such item, or its name taken. */
export type Renamed<T> = T | "not_found" | "name_taken";

/**
 * Why an import's save wrote nothing (a save that wrote, inserting or updating, answers undefined):
 * "owned_elsewhere", its id is another owner's record (a record never moves); "type_differs", the
 * stored record of its id has another type (a type never changes); "name_taken", another record of
 * its owner and type has its name.
 */
export type SaveRefusal = "owned_elsewhere" | "type_differs" | "name_taken";

/**
 * Tags of workspaces and their bindings to datasets and apps. A tag's name is unique per
 * (workspace, type), held by the store; each tag's count of bindings is kept by the store in step
 * with every write.
 */
export interface TagRepository {
  /**
   * Inserts or replaces the tag with this id (imports), in one statement; refused, writing nothing
   * (see {@link SaveRefusal}), when the id is another workspace's tag, the stored tag has another
   * type, or another tag of its workspace and type has its name.
   */
  save(tag: Tag): Promise<SaveRefusal | undefined>;
  /**
   * Inserts a new tag; false, writing nothing, when its workspace already has a tag of its type
   * with its name. Of concurrent creates of one name, exactly one succeeds.
   */
  create(tag: Tag): Promise<boolean>;
  /** The tag with this id if it is the workspace's and of this type, with its binding count. */
  findInWorkspace(workspaceId: string, type: TagType, tagId: string): Promise<CountedTag | undefined>;
  /** The tags among these ids that exist, of any workspace and type, in no particular order. */
  findByIds(ids: readonly string[]): Promise<Tag[]>;
  /** The workspace's tags, by type, name (in code point order), then id. */
  listInWorkspace(workspaceId: string): Promise<Tag[]>;
  /** The workspace's tags of one type with their binding counts, newest first (`createdAt`), then by id. */
  listCounted(workspaceId: string, type: TagType): Promise<CountedTag[]>;
  /**
   * Renames the workspace's tag of this type, in one statement: the tag as renamed, with its
   * binding count; "not_found" when there is none; "name_taken", writing nothing, when another tag
   * of its workspace and type has the name. Renaming a tag to its own name succeeds.
   */
  rename(workspaceId: string, type: TagType, tagId: string, name: string): Promise<Renamed<CountedTag>>;
  /**
   * Deletes the workspace's tag of this type and every binding of it, in one statement; the targets
   * stay. False when there was none.
   */
  delete(workspaceId: string, type: TagType, tagId: string): Promise<boolean>;
  /**
   * Adds the bindings whose (tag, target) pair is not bound yet, atomically; pairs already bound
   * keep their first binding. Safe under concurrent calls: a pair is never bound twice, and
   * concurrent binds of the same tags never deadlock (they take them in one order).
   */
  bind(bindings: readonly TagBinding[]): Promise<void>;
  /** Deletes the target's bindings to these tags; other ids and pairs not bound are ignored. */
  unbind(targetId: string, tagIds: readonly string[]): Promise<void>;
  /**
   * Binds the workspace's knowledge tags among those asked for to the workspace's dataset, as `bind`
   * binds (`eligibleTagIds`: other ids are ignored, pairs already bound keep their binding). False,
   * writing nothing, when the workspace has no dataset of that id. One statement where the store
   * can: the dataset is checked as the bindings are written.
   */
  bindToDataset(binding: DatasetBinding): Promise<boolean>;
  /**
   * Unbinds the workspace's knowledge tags among `tagIds` from the workspace's dataset; other ids
   * and pairs not bound are ignored. False, writing nothing, when the workspace has no dataset of
   * that id. One statement where the store can.
   */
  unbindFromDataset(workspaceId: string, datasetId: string, tagIds: readonly string[]): Promise<boolean>;
  /** Ids of the tags bound to the target, in id order. */
  boundTagIds(targetId: string): Promise<string[]>;
  /** The tags bound to each target, by name (in code point order) then id; a target without any maps to []. */
  boundTags(targetIds: readonly string[]): Promise<Map<string, Tag[]>>;
  /**
   * The workspace's dataset (absent when it has none of that id) and the knowledge tags bound to
   * it, ordered as `boundTags` orders them, read together: one statement where the store can.
   */
  findBoundToDataset(
    workspaceId: string,
    datasetId: string,
  ): Promise<{ dataset: Dataset | undefined; tags: Tag[] }>;
}
