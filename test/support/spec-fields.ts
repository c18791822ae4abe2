// The fields of the REST resources as spec §2 lists them, sorted, for exact-shape assertions.

/** A guide list item (spec §2.2). */
export const LIST_ITEM_FIELDS = [
  'created_at',
  'description',
  'icon_url',
  'id',
  'locked',
  'owner_name',
  'permalink',
  'publish_status',
  'team_id',
  'title',
  'updated_at',
];

/** A guide (spec §2.3): the list item and the detail fields. */
export const GUIDE_FIELDS = [
  ...LIST_ITEM_FIELDS,
  'app_version',
  'brand_color',
  'folder_id',
  'is_public',
  'language',
  'markdown_body',
  'notice',
  'tags',
  'text_direction',
  'thumbnail_url',
].sort();

/** What a guide created with nothing but its team shows (decisions §2 defaults), on a plan with full guides. */
export const DEFAULT_GUIDE_VALUES = {
  title: null,
  description: null,
  owner_name: null,
  icon_url: null,
  publish_status: 'DRAFT',
  locked: false,
  language: 'en',
  text_direction: 'ltr',
  app_version: null,
  thumbnail_url: null,
  tags: null,
  folder_id: null,
  is_public: false,
  brand_color: null,
  notice: null,
};
