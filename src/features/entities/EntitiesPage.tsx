import AddIcon from '@mui/icons-material/Add';
import {
  Box,
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
import { useListEntitiesQuery } from '@/api/entities.api';
import { useAppDispatch } from '@/app/hooks';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { PageHeader } from '@/components/PageHeader';
import { QueryState } from '@/components/QueryState';
import { useReportedError } from '@/hooks/useReportedError';
import { useConfirmedAction } from '@/hooks/useConfirmedAction';
import { toastQueued } from '@/ui/ui.slice';
import { useDeleteEntityMutation } from './entities.api';

/** `/entities`: the entity definitions as cards. */
export function EntitiesPage() {
  const entitiesQuery = useListEntitiesQuery();
  const [deleteEntity] = useDeleteEntityMutation();
  const dispatch = useAppDispatch();

  useReportedError(messages.entities.fetchContext, entitiesQuery.error);

  const removal = useConfirmedAction(async (entity: Entity) => {
    await deleteEntity(entity).unwrap();
    dispatch(toastQueued(`Deleted ${entity.name} and its records`, 'success'));
  }, messages.entities.deleteContext);

  return (
    <Box>
      <PageHeader title="Entities">
        <Button
          variant="contained"
          startIcon={<AddIcon />}
          component={RouterLink}
          to="/entities/add"
        >
          Add Entity
        </Button>
      </PageHeader>
      <QueryState
        query={entitiesQuery}
        what="entities"
        empty="No entities yet"
        emptyAction={{ label: 'Add one', to: '/entities/add' }}
      >
        {(entities) => (
          <Grid
            container
            spacing={2}
            component="ul"
            aria-label="Entities"
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
                    <Button size="small" component={RouterLink} to={`/entities/${entity.name}`}>
                      Records
                    </Button>
                    <Button size="small" component={RouterLink} to={`/entities/edit/${entity._id}`}>
                      Edit
                    </Button>
                    <Button size="small" color="error" onClick={() => removal.ask(entity)}>
                      Delete
                    </Button>
                  </CardActions>
                </Card>
              </Grid>
            ))}
          </Grid>
        )}
      </QueryState>
      <ConfirmDialog
        {...removal.dialog}
        title="Delete entity"
        message={`Delete ${removal.pending?.name ?? ''} and all its records?`}
      />
    </Box>
  );
}
