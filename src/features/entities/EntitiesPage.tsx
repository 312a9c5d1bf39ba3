import {
  Button,
  Card,
  CardActions,
  CardContent,
  Chip,
  Grid,
  Stack,
  Typography,
} from '@mui/material';
import { Link as RouterLink } from 'react-router-dom';
import { messages } from '@common/messages';
import type { Entity } from '@common/schemas/entities';
import { useAppDispatch } from '@/lib/store';
import { useCan } from '@/auth/useCan';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { ListPage } from '@/components/ListPage';
import { QueryState } from '@/components/QueryState';
import { RecentlyDeleted } from '@/components/ItemHistory';
import { useReportedError } from '@/hooks/useReportedError';
import { useConfirmedAction } from '@/hooks/useConfirmedAction';
import { useEditors } from '@/hooks/usePresence';
import { editingSentence } from '@/lib/editing';
import { toastQueued, undoOffered } from '@/ui/ui.slice';
import {
  entityHistory,
  undoEntityDelete,
  useDeleteEntityMutation,
  useListEntitiesQuery,
} from './entities.api';
import { undoable, useT } from '@/i18n/useT';

/** The entity definitions as cards, each with the actions the user may take. */
function EntityCards({ mayAdd }: { mayAdd: boolean }) {
  const t = useT();
  const entitiesQuery = useListEntitiesQuery();
  const [deleteEntity] = useDeleteEntityMutation();
  const dispatch = useAppDispatch();
  const mayEdit = useCan('PUT', '/api/entities/:id');
  const mayDelete = useCan('DELETE', '/api/entities/:id');
  const mayRestore = useCan('POST', '/api/entities/:id/versions/:versionId/restore');
  const mayReadRecords = useCan('GET', '/api/entity-records/:entityName');
  const editors = useEditors('entities');

  useReportedError(messages.entities.fetchContext, entitiesQuery.error);

  const removal = useConfirmedAction(async (entity: Entity) => {
    await deleteEntity(entity).unwrap();
    const deleted = t('entities.deleted', { name: entity.name });
    dispatch(
      mayRestore ? undoOffered(deleted, undoEntityDelete(entity)) : toastQueued(deleted, 'success'),
    );
  }, messages.entities.deleteContext);

  return (
    <>
      <QueryState
        query={entitiesQuery}
        what={t('entities.what')}
        empty={t('entities.empty')}
        emptyAction={mayAdd ? { label: t('entities.addOne'), to: '/entities/add' } : undefined}
      >
        {(entities) => (
          <Grid
            container
            spacing={2}
            component="ul"
            aria-label={t('entities.listLabel')}
            sx={{ listStyle: 'none', p: 0 }}
          >
            {entities.map((entity) => (
              <Grid key={entity._id} size={{ xs: 12, sm: 6, md: 4 }} component="li">
                <Card
                  aria-label={entity.name}
                  sx={{ height: '100%', display: 'flex', flexDirection: 'column' }}
                >
                  <CardContent sx={{ flexGrow: 1 }}>
                    <Typography variant="h6" component="h2">
                      {entity.name}
                    </Typography>
                    <Typography variant="body2" color="text.secondary" gutterBottom>
                      {entity.category}
                    </Typography>
                    {entity.description && (
                      <Typography variant="body2">{entity.description}</Typography>
                    )}
                    {editors[entity._id] && (
                      <Typography role="status" variant="body2" color="text.secondary">
                        {editingSentence(editors[entity._id]!, t('entities.thisEntity'))}
                      </Typography>
                    )}
                    <Stack direction="row" spacing={0.5} sx={{ mt: 1, flexWrap: 'wrap', gap: 0.5 }}>
                      {entity.fields.map((field) => (
                        <Chip
                          key={field.name}
                          size="small"
                          label={`${field.label} (${field.name})`}
                        />
                      ))}
                    </Stack>
                  </CardContent>
                  <CardActions>
                    {mayReadRecords && (
                      <Button size="small" component={RouterLink} to={`/entities/${entity.name}`}>
                        {t('entities.records')}
                      </Button>
                    )}
                    {mayEdit && (
                      <Button
                        size="small"
                        component={RouterLink}
                        to={`/entities/edit/${entity._id}`}
                      >
                        {t('entities.edit')}
                      </Button>
                    )}
                    {mayDelete && (
                      <Button size="small" color="error" onClick={() => removal.ask(entity)}>
                        {t('common.delete')}
                      </Button>
                    )}
                  </CardActions>
                </Card>
              </Grid>
            ))}
          </Grid>
        )}
      </QueryState>
      <ConfirmDialog
        {...removal.dialog}
        title={t('entities.deleteTitle')}
        message={undoable(
          t('entities.deleteQuestion', { name: removal.pending?.name ?? '' }),
          mayRestore,
        )}
        editors={removal.pending && editors[removal.pending._id]}
      />
    </>
  );
}

/** `/entities`: the entity definitions; a user whose role may not read them is told so. */
export function EntitiesPage() {
  const t = useT();
  return (
    <ListPage
      title={t('entities.title')}
      read={{ path: '/api/entities', what: t('entities.reading') }}
      add={{ label: t('entities.add'), to: '/entities/add', path: '/api/entities' }}
      actions={
        <RecentlyDeleted
          endpoints={entityHistory}
          title={t('entities.recentlyDeleted')}
          nameOf={(item) => String(item.document.name)}
        />
      }
    >
      {(mayAdd) => <EntityCards mayAdd={mayAdd} />}
    </ListPage>
  );
}
